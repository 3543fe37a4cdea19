// Authentication and authorization over real HTTP: every 401 and 403 code of the spec.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Api, expectError } from "../support/api.js";
import { makeKey } from "../support/keys.js";
import { startVerdict, type Verdict } from "../support/server.js";

let v: Verdict;
let api: Api;

beforeAll(async () => {
  v = await startVerdict();
  api = new Api(v.url, v.bootstrapKey);
});
afterAll(async () => v.destroy());

const createKey = async (body: Record<string, unknown>) => {
  const res = await api.post("/v1/api-keys", { name: "test key", ...body });
  expect(res.status).toBe(201);
  return res.body as { id: string; key: string; scopes: string[] };
};

describe("health and key verification", () => {
  it("answers GET /v1/health without credentials", async () => {
    const res = await api.get("/v1/health", { key: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "healthy", version: expect.any(String) });
    expect(Date.parse(res.body.timestamp)).not.toBeNaN();
  });

  it("answers GET /v1/health/ready without credentials once the gateway reaches every service (all-in-one)", async () => {
    const res = await api.get("/v1/health/ready", { key: null });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: "ready",
      services: {
        identity: "SERVING",
        policy: "SERVING",
        evaluation: "SERVING",
        compliance: "SERVING",
        webhooks: "SERVING",
        integrations: "SERVING",
      },
    });
  });

  it("answers GET /v1/health/auth and GET /v1/auth/verify for a valid key", async () => {
    const health = await api.get("/v1/health/auth");
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({
      status: "healthy",
      authenticated: true,
      organization: expect.stringMatching(/^org_/),
      scopes: ["admin"],
    });
    const verify = await api.get("/v1/auth/verify");
    expect(verify.status).toBe(200);
    expect(verify.body).toEqual({
      valid: true,
      key_id: expect.stringMatching(/^key_/),
      scopes: ["admin"],
      expires_at: null,
      organization: health.body.organization,
    });
  });

  it("accepts the legacy api_key query parameter and marks it deprecated", async () => {
    const res = await api.get("/v1/auth/verify", { key: null, query: { api_key: v.bootstrapKey } });
    expect(res.status).toBe(200);
    expect(res.headers.get("deprecation")).toBe("true");
    // also on routes with their own query parameters
    const list = await api.get("/v1/evaluations", { key: null, query: { api_key: v.bootstrapKey, limit: 1 } });
    expect(list.status).toBe(200);
  });
});

describe("401 codes", () => {
  it("AUTH_MISSING_KEY without credentials", async () => {
    expectError(await api.get("/v1/auth/verify", { key: null }), 401, "unauthorized", "AUTH_MISSING_KEY");
  });

  it("AUTH_INVALID_KEY for a malformed key, a bad checksum, an unknown key and a non-Bearer header", async () => {
    expectError(await api.get("/v1/auth/verify", { key: "not-a-key" }), 401, "unauthorized", "AUTH_INVALID_KEY");
    const good = makeKey();
    const badChecksum = good.slice(0, -1) + (good.endsWith("0") ? "1" : "0");
    expectError(await api.get("/v1/auth/verify", { key: badChecksum }), 401, "unauthorized", "AUTH_INVALID_KEY");
    expectError(await api.get("/v1/auth/verify", { key: makeKey() }), 401, "unauthorized", "AUTH_INVALID_KEY");
    expectError(
      await api.get("/v1/auth/verify", { key: null, headers: { authorization: `Basic ${v.bootstrapKey}` } }),
      401,
      "unauthorized",
      "AUTH_INVALID_KEY",
    );
  });

  it("AUTH_REVOKED_KEY at once after revocation, despite the gateway's credential cache", async () => {
    const { id, key } = await createKey({ scopes: ["read:org"] });
    expect((await api.get("/v1/auth/verify", { key })).status).toBe(200);
    expect((await api.delete(`/v1/api-keys/${id}`)).status).toBe(204);
    // The revocation event reaches the gateway asynchronously; it must land within moments.
    let res = await api.get("/v1/auth/verify", { key });
    for (let i = 0; i < 20 && res.status === 200; i++) {
      await new Promise((r) => setTimeout(r, 25));
      res = await api.get("/v1/auth/verify", { key });
    }
    expectError(res, 401, "unauthorized", "AUTH_REVOKED_KEY");
    expectError(await api.delete(`/v1/api-keys/${id}`), 410, "not_found", "RESOURCE_DELETED");
  });
});

describe("403 codes", () => {
  it("AUTH_INSUFFICIENT_SCOPE names the scope at the top level and in details", async () => {
    const { key } = await createKey({ scopes: ["read:evaluations"] });
    const res = await api.post(
      "/v1/evaluations",
      { repository: "acme/api", ref: "main", files: [{ path: "a.txt", content: "x" }] },
      { key },
    );
    expectError(res, 403, "forbidden", "AUTH_INSUFFICIENT_SCOPE");
    expect(res.body.required_scope).toBe("write:evaluations");
    expect(res.body.details).toEqual({ required_scope: "write:evaluations", current_scopes: ["read:evaluations"] });
    // and the scope it has works
    expect((await api.get("/v1/evaluations", { key })).status).toBe(200);
  });

  it("admin is needed for API keys", async () => {
    const { key } = await createKey({ scopes: ["read:org", "write:org"] });
    const res = await api.get("/v1/api-keys", { key });
    expectError(res, 403, "forbidden", "AUTH_INSUFFICIENT_SCOPE");
    expect(res.body.required_scope).toBe("admin");
  });

  it("AUTH_IP_NOT_ALLOWED outside the key's allowlist; allowed inside it", async () => {
    const outside = await createKey({ scopes: ["read:org"], ip_allowlist: "10.0.0.0/8, 192.168.0.0/16" });
    expectError(await api.get("/v1/auth/verify", { key: outside.key }), 403, "forbidden", "AUTH_IP_NOT_ALLOWED");
    const inside = await createKey({ scopes: ["read:org"], ip_allowlist: "10.0.0.0/8,127.0.0.1/32" });
    expect((await api.get("/v1/auth/verify", { key: inside.key })).status).toBe(200);
  });

  it("AUTH_ORG_ACCESS_DENIED when a non-operator key manages organizations", async () => {
    const { key } = await createKey({ scopes: ["admin"] });
    expectError(
      await api.post("/v1/organizations", { name: "Sneaky" }, { key }),
      403,
      "forbidden",
      "AUTH_ORG_ACCESS_DENIED",
    );
  });
});

describe("API keys", () => {
  it("creates keys in the documented format, shows the value once, lists and revokes", async () => {
    const created = await api.post("/v1/api-keys", {
      name: "ci",
      scopes: ["read:evaluations", "write:evaluations"],
      expiration: "7d",
      environment: "test",
    });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^vdt_key_test_[0-9A-Za-z]{38}$/);
    expect(created.body).toMatchObject({
      name: "ci",
      environment: "test",
      status: "active",
      prefix: created.body.key.slice(0, 17),
    });
    const days = (Date.parse(created.body.expires_at) - Date.parse(created.body.created_at)) / 86_400_000;
    expect(days).toBeCloseTo(7, 3);

    const list = await api.get("/v1/api-keys");
    expect(list.status).toBe(200);
    const listed = list.body.api_keys.find((k: { id: string }) => k.id === created.body.id);
    expect(listed).toMatchObject({ id: created.body.id, name: "ci", status: "active" });
    expect(JSON.stringify(list.body)).not.toContain(created.body.key);

    expect((await api.delete(`/v1/api-keys/${created.body.id}`)).status).toBe(204);
    const after = await api.get("/v1/api-keys");
    expect(after.body.api_keys.find((k: { id: string }) => k.id === created.body.id)).toMatchObject({
      status: "revoked",
      revoked_at: expect.any(String),
    });
  });

  it("validates key creation fields", async () => {
    const res = await api.post("/v1/api-keys", {
      name: "",
      scopes: ["root"],
      expiration: "1y",
      ip_allowlist: "nonsense",
    });
    expect(res.status).toBe(400);
    const fields = res.body.details.errors.map((e: { field: string; code: string }) => `${e.field}:${e.code}`).sort();
    expect(fields).toEqual([
      "expiration:INVALID_ENUM",
      "ip_allowlist:INVALID_FORMAT",
      "name:MIN_SIZE_REQUIRED",
      "scopes[0]:INVALID_ENUM",
    ]);
    const cidr = await api.post("/v1/api-keys", { name: "x", scopes: ["read:org"], ip_allowlist: "10.0.0.0/33" });
    expect(cidr.status).toBe(422);
    expect(cidr.body.details.errors).toEqual([
      expect.objectContaining({ field: "ip_allowlist", code: "INVALID_FORMAT" }),
    ]);
  });

  it("refuses to revoke the instance operator's bootstrap key through the API", async () => {
    const verify = await api.get("/v1/auth/verify");
    const res = await api.delete(`/v1/api-keys/${verify.body.key_id}`);
    expectError(res, 422, "validation_error", "VALIDATION_FAILED");
    expect((await api.get("/v1/auth/verify")).status).toBe(200);
  });

  it("returns 404 for an unknown key id", async () => {
    const res = await api.delete("/v1/api-keys/key_00000000000000000000000000");
    expectError(res, 404, "not_found", "RESOURCE_NOT_FOUND");
    expect(res.body.details).toEqual({ resource_type: "api_key", resource_id: "key_00000000000000000000000000" });
  });
});
