// Attacks on the people layer's authority over real HTTP against one all-in-one process (issue
// 25): a poisoned OAuth issuer, an admin's keys reaching for the owner role, keys that outlive
// their creator's role or membership, tokens readable in the store, lax redirect URIs and audit
// paging that trusted any cursor or date.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import * as oidc from "openid-client";
import { Api, expectError, expectFieldError, type ApiResponse } from "../support/api.js";
import { storedData } from "../support/atRest.js";
import { grantTokens } from "../support/oauth.js";
import { addMember, as, rawRequest, signIn, type Person } from "../support/people.js";
import { startVerdict, type Verdict } from "../support/server.js";

const PASSWORD = "correct horse battery staple";
const REDIRECT = "http://localhost:8123/callback";

let v: Verdict;
let op: Api;
/** Hooli's first admin key: made by the operator, no person behind it. */
let hooli: Api;
let ownerId: string;
let adminId: string;
let admin: Person;

beforeAll(async () => {
  v = await startVerdict();
  op = new Api(v.url, v.bootstrapKey);
  const org = await op.post("/v1/organizations", { name: "Hooli", plan: "team" });
  expect(org.status).toBe(201);
  hooli = op.withKey(org.body.api_key.key);
  ownerId = await addMember(op, "owner@hooli.test", "owner", PASSWORD, {
    path: `/v1/organizations/${org.body.organization.id}/members`,
  });
  adminId = await addMember(hooli, "admin@hooli.test", "admin", PASSWORD);
  admin = await signIn(hooli, "admin@hooli.test", PASSWORD);
});
afterAll(async () => v.destroy());

/** An admin key created by the signed-in person: its value and id. */
async function keyOf(person: Person): Promise<{ key: string; id: string }> {
  const res = await hooli.post("/v1/api-keys", { name: "laptop", scopes: ["admin"], expiration: "never" }, as(person));
  expect(res.status).toBe(201);
  return res.body as { key: string; id: string };
}

// First: before anything else has reached the authorization server of this process.
describe("the OAuth issuer without VERDICT_PUBLIC_URL", () => {
  it("is never taken from an untrusted Host header, so one request cannot poison the metadata", async () => {
    for (const host of ["attacker.example", `attacker.example:${v.port}`, `localhost:${v.port + 1}`]) {
      const poisoned = await rawRequest(v.url, "GET", "/.well-known/oauth-authorization-server", { host });
      expect({ host, status: poisoned.status }).toEqual({ host, status: 403 });
      expect(JSON.parse(poisoned.text)).toMatchObject({ code: "AUTH_HOST_NOT_ALLOWED" });
      expect(poisoned.text).not.toContain("attacker.example/auth");
    }
    const res = await fetch(`${v.url}/.well-known/oauth-authorization-server`);
    expect(res.status).toBe(200);
    const m = (await res.json()) as Record<string, string>;
    expect(m.issuer).toBe(`${v.url}/auth`);
    expect(m.token_endpoint).toBe(`${v.url}/auth/oauth/token`);
    // Another loopback name of the same port gets its own issuer; none is the attacker's.
    const local = await rawRequest(v.url, "GET", "/.well-known/oauth-authorization-server", {
      host: `localhost:${v.port}`,
    });
    expect(local.status).toBe(200);
    expect(JSON.parse(local.text).issuer).toBe(`http://localhost:${v.port}/auth`);
  });
});

describe("the role ceiling on keys (admin to owner escalation)", () => {
  it("caps an admin's key at the admin's role: it cannot make, demote or remove an owner, or invite one", async () => {
    const key = hooli.withKey((await keyOf(admin)).key);
    // A key that key creates acts for the same person.
    const child = await key.post("/v1/api-keys", { name: "child", scopes: ["admin"], expiration: "never" });
    expect(child.status).toBe(201);
    const refused = async (res: Promise<ApiResponse>) =>
      expectError(await res, 403, "forbidden", "AUTH_INSUFFICIENT_ROLE");
    for (const k of [key, hooli.withKey(child.body.key)]) {
      await refused(k.patch(`/v1/members/${adminId}`, { role: "owner" }));
      await refused(k.patch(`/v1/members/${ownerId}`, { role: "admin" }));
      await refused(k.delete(`/v1/members/${ownerId}`));
      await refused(k.post("/v1/members", { email: "mallory@evil.test", role: "owner" }));
    }
    const members = await hooli.get("/v1/members");
    const roleOf = (id: string) => members.body.members.find((m: { id: string }) => m.id === id)?.role;
    expect([roleOf(ownerId), roleOf(adminId)]).toEqual(["owner", "admin"]);
    // What an admin may do, the admin's key still does.
    const invited = await key.post("/v1/members", { email: "viewer@hooli.test", role: "viewer" });
    expect(invited.status).toBe(201);
    // Keys with no person behind them keep the documented behaviour: the organization's first
    // key, and keys it creates, may invite an owner.
    const operatorMade = await hooli.post("/v1/api-keys", { name: "ci", scopes: ["admin"], expiration: "never" });
    const ownerInvite = await hooli
      .withKey(operatorMade.body.key)
      .post("/v1/members", { email: "second-owner@hooli.test", role: "owner" });
    expect(ownerInvite.status).toBe(201);
  });
});

describe("keys of a demoted or removed member", () => {
  it("narrow to the creator's new role at once (cached verifications included), and stop when the creator is removed", async () => {
    const exId = await addMember(hooli, "ex@hooli.test", "admin", PASSWORD);
    const ex = await signIn(hooli, "ex@hooli.test", PASSWORD);
    const made = await keyOf(ex);
    const key = hooli.withKey(made.key);
    // Verified (and cached by the gateway) while its creator is an admin.
    expect((await key.get("/v1/api-keys")).status).toBe(200);

    expect((await hooli.patch(`/v1/members/${exId}`, { role: "member" })).status).toBe(200);
    const escalate = await key.post("/v1/api-keys", { name: "again", scopes: ["admin"], expiration: "never" });
    expectError(escalate, 403, "forbidden", "AUTH_INSUFFICIENT_SCOPE");
    expectError(await key.get("/v1/api-keys"), 403, "forbidden", "AUTH_INSUFFICIENT_SCOPE");
    // A member's scopes remain.
    expect((await key.get("/v1/evaluations")).status).toBe(200);

    expect((await hooli.delete(`/v1/members/${exId}`)).status).toBe(204);
    expectError(await key.get("/v1/evaluations"), 401, "unauthorized", "AUTH_REVOKED_KEY");
    const keys = await hooli.get("/v1/api-keys");
    expect(keys.body.api_keys.find((k: { id: string }) => k.id === made.id)?.revoked_at).toEqual(expect.any(String));
    const removed = await hooli.get("/v1/audit-events", { query: { type: "member.removed", limit: 1 } });
    expect(removed.body.audit_events[0].data).toMatchObject({ api_keys_revoked: 1 });
  });
});

describe("OAuth tokens at rest", () => {
  it("are stored as hashes: no access, refresh or code value in the store's files, and lookups and revocation still work", async () => {
    const client = await hooli.post("/v1/oauth-clients", {
      name: "Hooli dashboard",
      redirect_uris: [REDIRECT],
      scopes: ["read:evaluations", "read:org"],
    });
    expect(client.status).toBe(201);
    const { cfg, code, tokens } = await grantTokens({
      baseUrl: v.url,
      client: client.body,
      cookie: admin.cookie,
      redirect: REDIRECT,
      scope: "read:evaluations read:org",
    });
    expect((await hooli.withKey(tokens.access_token).get("/v1/evaluations")).status).toBe(200);
    // Rotation finds the refresh token by its value.
    const refreshed = await oidc.refreshTokenGrant(cfg, tokens.refresh_token!);
    expect((await hooli.withKey(refreshed.access_token).get("/v1/organization")).status).toBe(200);

    const values = [code, tokens.access_token, tokens.refresh_token!, refreshed.access_token, refreshed.refresh_token!];
    for (const { where, bytes } of await storedData(v))
      for (const value of values)
        expect({ where, found: bytes.includes(Buffer.from(value)) }).toEqual({ where, found: false });

    // Revoking the refresh token ends the grant: its access token stops working.
    await oidc.tokenRevocation(cfg, refreshed.refresh_token!);
    expectError(
      await hooli.withKey(refreshed.access_token).get("/v1/evaluations"),
      401,
      "unauthorized",
      "AUTH_REVOKED_KEY",
    );
  });
});

describe("redirect URI registration", () => {
  it.each([
    ["an empty authority", "https:///cb"],
    ["a bidi override", "https://app.example.com/\u202Ecb"],
    ["a trailing newline", "https://app.example.com/cb\n"],
    ["a backslash", "https://app.example.com\\@evil.example/cb"],
  ])("refuses %s, naming redirect_uris[i]", async (_what, uri) => {
    const res = await hooli.post("/v1/oauth-clients", {
      name: "Sneaky",
      redirect_uris: ["https://app.example.com/cb", uri],
      scopes: ["read:org"],
    });
    expectFieldError(res, 422, "redirect_uris[1]", "INVALID_FORMAT");
  });
});

describe("audit paging", () => {
  it("refuses another organization's cursor and impossible dates as evaluations do (422)", async () => {
    for (const name of ["a", "b"])
      expect((await op.post("/v1/api-keys", { name, scopes: ["read:org"], expiration: "30m" })).status).toBe(201);
    const page = await op.get("/v1/audit-events", { query: { limit: 1 } });
    expect(page.body.pagination.next_cursor).toEqual(expect.any(String));
    const foreign = await hooli.get("/v1/audit-events", { query: { cursor: page.body.pagination.next_cursor } });
    expectFieldError(foreign, 422, "cursor", "INVALID_FORMAT");
    // Its own organization pages with it.
    expect((await op.get("/v1/audit-events", { query: { cursor: page.body.pagination.next_cursor } })).status).toBe(
      200,
    );
    for (const field of ["since", "until"]) {
      const audit = await hooli.get("/v1/audit-events", { query: { [field]: "2026-02-30" } });
      const evaluations = await hooli.get("/v1/evaluations", { query: { [field]: "2026-02-30" } });
      expectFieldError(audit, 422, field, "INVALID_FORMAT");
      expect({ status: audit.status, code: audit.body.code }).toEqual({
        status: evaluations.status,
        code: evaluations.body.code,
      });
    }
  });
});
