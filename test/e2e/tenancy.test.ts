// Tenancy: a second organization sees none of the first's data, and gets 404 (not 403) for it.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Api, expectError } from "../support/api.js";
import { startVerdict, type Verdict } from "../support/server.js";

let v: Verdict;
let a: Api;
let b: Api;
const ids: Record<string, string> = {};

beforeAll(async () => {
  v = await startVerdict();
  a = new Api(v.url, v.bootstrapKey);
  const orgB = await a.post("/v1/organizations", { name: "Globex", plan: "team" });
  expect(orgB.status).toBe(201);
  expect(orgB.body.api_key.key).toMatch(/^vdt_key_prod_/);
  expect(orgB.body.organization).toMatchObject({ name: "Globex", plan: "team", id: expect.stringMatching(/^org_/) });
  b = a.withKey(orgB.body.api_key.key);

  ids.evaluation = (
    await a.post("/v1/evaluations", {
      repository: "acme/secret",
      ref: "main",
      files: [{ path: "a", content: "AKIAZ7VQ3X4M2N8P5R6T" }],
    })
  ).body.id;
  ids.repository = (await a.post("/v1/repositories", { provider: "github", name: "acme/secret" })).body.id;
  await a.post("/v1/policies", {
    id: "acme-only",
    name: "Acme only",
    severity: "error",
    patterns: [{ type: "regex", value: "ACME", message: "acme" }],
  });
  ids.key = (await a.post("/v1/api-keys", { name: "acme ci", scopes: ["read:org"] })).body.id;
});
afterAll(async () => v.destroy());

describe("organization B", () => {
  it("is a different organization with its own admin key", async () => {
    const orgA = await a.get("/v1/organization");
    const orgB = await b.get("/v1/organization");
    expect(orgB.body.id).not.toBe(orgA.body.id);
    expect(orgB.body.name).toBe("Globex");
  });

  it("sees no evaluations, repositories, custom policies or keys of A", async () => {
    expect((await b.get("/v1/evaluations")).body.evaluations).toEqual([]);
    expect((await b.get("/v1/evaluations", { query: { repository: "acme/secret" } })).body.evaluations).toEqual([]);
    expect((await b.get("/v1/repositories")).body.repositories).toEqual([]);
    expect((await b.get("/v1/policies")).body.policies.map((p: { id: string }) => p.id)).not.toContain("acme-only");
    const keys = (await b.get("/v1/api-keys")).body.api_keys.map((k: { id: string }) => k.id);
    expect(keys).not.toContain(ids.key);
    expect((await b.get("/v1/organization")).body.repositories_count).toBe(0);
  });

  it("gets 404, not 403, for every id of A", async () => {
    expectError(await b.get(`/v1/evaluations/${ids.evaluation}`), 404, "not_found", "RESOURCE_NOT_FOUND");
    expectError(await b.delete(`/v1/evaluations/${ids.evaluation}`), 404, "not_found", "RESOURCE_NOT_FOUND");
    expectError(await b.delete(`/v1/repositories/${ids.repository}`), 404, "not_found", "RESOURCE_NOT_FOUND");
    expectError(await b.get("/v1/policies/acme-only"), 404, "not_found", "RESOURCE_NOT_FOUND");
    expectError(await b.patch("/v1/policies/acme-only", { enabled: false }), 404, "not_found", "RESOURCE_NOT_FOUND");
    expectError(await b.delete("/v1/policies/acme-only"), 404, "not_found", "RESOURCE_NOT_FOUND");
    expectError(await b.delete(`/v1/api-keys/${ids.key}`), 404, "not_found", "RESOURCE_NOT_FOUND");
    // and A's data is intact
    expect((await a.get(`/v1/evaluations/${ids.evaluation}`)).status).toBe(200);
    expect((await a.get("/v1/policies/acme-only")).body.enabled).toBe(true);
  });

  it("keeps built-in policy settings per organization", async () => {
    await b.patch("/v1/policies/aws-credentials", { enabled: false });
    expect((await b.get("/v1/policies/aws-credentials")).body.enabled).toBe(false);
    expect((await a.get("/v1/policies/aws-credentials")).body.enabled).toBe(true);
  });

  it("may reuse a custom policy id that A uses", async () => {
    const res = await b.post("/v1/policies", {
      id: "acme-only",
      name: "Globex's own",
      severity: "warning",
      patterns: [{ type: "regex", value: "GLOBEX", message: "globex" }],
    });
    expect(res.status).toBe(201);
    expect((await a.get("/v1/policies/acme-only")).body.name).toBe("Acme only");
  });
});
