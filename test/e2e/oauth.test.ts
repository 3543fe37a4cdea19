// OAuth 2.0: the clients an organization registers (validation, secrets shown once and stored
// hashed, tenancy, audit), over real HTTP against the all-in-one process.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Api, expectError, expectFieldError } from "../support/api.js";
import { startVerdict, type Verdict } from "../support/server.js";

let v: Verdict;
let op: Api;
let globex: Api;

const CLIENT = {
  name: "Acme CI dashboard",
  redirect_uris: ["https://dashboard.acme.test/oauth/callback", "http://localhost:8123/cb"],
  scopes: ["read:evaluations", "read:policies"],
};

beforeAll(async () => {
  v = await startVerdict();
  op = new Api(v.url, v.bootstrapKey);
  const org = await op.post("/v1/organizations", { name: "Globex", plan: "team" });
  expect(org.status).toBe(201);
  globex = op.withKey(org.body.api_key.key);
});
afterAll(async () => v.destroy());

describe("OAuth clients", () => {
  it("registers a confidential client whose secret is shown once, checksummed, and never stored whole", async () => {
    const created = await op.post("/v1/oauth-clients", CLIENT);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      client_id: expect.stringMatching(/^oac_[0-9a-z]{26}$/),
      ...CLIENT,
      public: false,
      created_at: expect.any(String),
      client_secret: expect.stringMatching(/^vdt_ocs_[0-9A-Za-z]{38}$/),
    });
    const secret: string = created.body.client_secret;
    const listed = await op.get("/v1/oauth-clients");
    expect(listed.status).toBe(200);
    expect(listed.body.oauth_clients).toEqual([
      expect.objectContaining({ client_id: created.body.client_id, name: CLIENT.name }),
    ]);
    expect(listed.text).not.toContain(secret);
    expect(v.output()).not.toContain(secret);

    const events = await op.get("/v1/audit-events", { query: { type: "oauth_client.created" } });
    expect(events.body.audit_events).toEqual([
      expect.objectContaining({
        type: "oauth_client.created",
        target: { type: "oauth_client", id: created.body.client_id },
      }),
    ]);
    expect(events.text).not.toContain(secret);
  });

  it("registers a public client without a secret", async () => {
    const created = await op.post("/v1/oauth-clients", { ...CLIENT, name: "Verdict CLI", public: true });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ public: true, client_secret: null });
  });

  it.each([
    ["http://dashboard.acme.test/cb", "plain http off loopback"],
    ["https://dashboard.acme.test/cb#frag", "a fragment"],
    ["https://*.acme.test/cb", "a wildcard host"],
    ["https://acme.test/cb/*", "a wildcard path"],
    ["/relative/cb", "a relative URI"],
    ["javascript:alert(1)", "a script URI"],
    ["https://user:pw@acme.test/cb", "user information"],
  ])("refuses the redirect URI %s (%s) naming the field", async (bad) => {
    const res = await op.post("/v1/oauth-clients", { ...CLIENT, redirect_uris: [CLIENT.redirect_uris[0], bad] });
    expectFieldError(res, 422, "redirect_uris[1]", "INVALID_FORMAT");
  });

  it("validates names, scopes and unknown fields in the spec's error format", async () => {
    expectFieldError(await op.post("/v1/oauth-clients", { ...CLIENT, name: "" }), 400, "name", "MIN_SIZE_REQUIRED");
    expectFieldError(
      await op.post("/v1/oauth-clients", { ...CLIENT, scopes: ["read:everything"] }),
      400,
      "scopes[0]",
      "INVALID_ENUM",
    );
    expectFieldError(
      await op.post("/v1/oauth-clients", { ...CLIENT, redirect_uris: [] }),
      400,
      "redirect_uris",
      "MIN_SIZE_REQUIRED",
    );
    const { redirect_uris: _omitted, ...noUris } = CLIENT;
    expectFieldError(await op.post("/v1/oauth-clients", noUris), 400, "redirect_uris", "REQUIRED");
  });

  it("keeps each organization's clients to itself and needs the admin scope", async () => {
    const mine = await globex.post("/v1/oauth-clients", { ...CLIENT, name: "Globex app" });
    expect(mine.status).toBe(201);
    const theirs = (await op.get("/v1/oauth-clients")).body.oauth_clients.map((c: { name: string }) => c.name);
    expect(theirs).not.toContain("Globex app");
    expectError(await op.delete(`/v1/oauth-clients/${mine.body.client_id}`), 404, "not_found", "RESOURCE_NOT_FOUND");

    const reader = await globex.post("/v1/api-keys", { name: "reader", scopes: ["read:org"] });
    expectError(
      await globex.withKey(reader.body.key).get("/v1/oauth-clients"),
      403,
      "forbidden",
      "AUTH_INSUFFICIENT_SCOPE",
    );

    expect((await globex.delete(`/v1/oauth-clients/${mine.body.client_id}`)).status).toBe(204);
    expect((await globex.get("/v1/oauth-clients")).body.oauth_clients).toEqual([]);
    expectError(await globex.delete(`/v1/oauth-clients/${mine.body.client_id}`), 410, "not_found", "RESOURCE_DELETED");
    const deleted = await globex.get("/v1/audit-events", { query: { type: "oauth_client.deleted" } });
    expect(deleted.body.audit_events).toHaveLength(1);
  });
});

describe("the authorization server's throttle", () => {
  it("counts token requests against the caller's address: guessing secrets gets 429", async () => {
    const small = await startVerdict({ env: { VERDICT_RATE_LIMIT_PER_MINUTE: "5" } });
    try {
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 7; i++) {
        last = await fetch(`${small.url}/auth/oauth/token`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({
            grant_type: "authorization_code",
            code: "guess",
            client_id: "oac_01jd0000000000000000000000",
            client_secret: `vdt_ocs_${"A".repeat(38)}`,
          }).toString(),
        });
        statuses.push(last.status);
      }
      expect(statuses.slice(0, 5).every((s) => s === 401 || s === 400)).toBe(true);
      expect(statuses.slice(5)).toEqual([429, 429]);
      expect(last!.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(await last!.json()).toMatchObject({ code: "RATE_LIMIT_EXCEEDED" });
    } finally {
      await small.destroy();
    }
  });
});
