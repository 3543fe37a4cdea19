// The overview's figures over real HTTP: grouped in the store (embedded SQLite here; MongoDB or
// FerretDB when VERDICT_E2E_MONGODB_URI is set), per organization, with the range's buckets
// zero-filled and the validation errors on their fields.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Api, expectFieldError } from "../support/api.js";
import { startVerdict, type Verdict } from "../support/server.js";

let v: Verdict;
let api: Api;
let other: Api;

const todo = {
  id: "no-todo-tokens",
  name: "No TODO tokens",
  severity: "error",
  patterns: [{ type: "regex", value: "TODO\\(token\\)", message: "A TODO token was left in the code" }],
};
const evaluation = (repository: string, content: string) => ({
  repository,
  ref: "main",
  files: [{ path: "src/a.ts", content, status: "modified" }],
});

const today = new Date().toISOString().slice(0, 10);
const DAY = 86_400_000;

beforeAll(async () => {
  v = await startVerdict();
  api = new Api(v.url, v.bootstrapKey);
  expect((await api.post("/v1/policies", todo)).status).toBe(201);
  const results = [
    await api.post("/v1/evaluations", evaluation("acme/payments", "// TODO(token)\n// TODO(token)\n")),
    await api.post("/v1/evaluations", evaluation("acme/payments", "// TODO(token)\n")),
    await api.post("/v1/evaluations", evaluation("acme/web", "// TODO(token)\n")),
    await api.post("/v1/evaluations", evaluation("acme/web", "const ok = 1;\n")),
    await api.post("/v1/evaluations", evaluation("acme/docs", "nothing here\n")),
  ];
  for (const r of results) expect(r.body.status).toBe("completed");
  // Deleted evaluations do not count.
  const gone = await api.post("/v1/evaluations", evaluation("acme/gone", "// TODO(token)\n"));
  expect((await api.delete(`/v1/evaluations/${gone.body.id}`)).status).toBe(204);
  // Another organization's evaluations never show.
  const org = await api.post("/v1/organizations", { name: "Initech" });
  other = api.withKey(org.body.api_key.key);
  expect((await other.post("/v1/policies", todo)).status).toBe(201);
  await other.post("/v1/evaluations", evaluation("initech/secret-repo", "// TODO(token)\n".repeat(9)));
});
afterAll(async () => v.destroy());

describe("GET /v1/evaluations/stats", () => {
  it("answers pass/fail and violations per day, top policies and repositories, for the caller's organization", async () => {
    const res = await api.get("/v1/evaluations/stats");
    expect(res.status).toBe(200);
    expect(res.body.bucket).toBe("day");
    expect(Date.parse(res.body.until) - Date.parse(res.body.since)).toBe(30 * DAY);
    expect(res.body.totals).toEqual({ evaluations: 5, passed: 2, failed: 3, violations: 4 });
    // Every day of the range, oldest first, the empty ones with zeros.
    expect(res.body.buckets.length).toBeGreaterThanOrEqual(30);
    expect(res.body.buckets.at(-1)).toEqual({ start: today, evaluations: 5, passed: 2, failed: 3, violations: 4 });
    expect(res.body.buckets[0]).toMatchObject({ evaluations: 0, passed: 0, failed: 0, violations: 0 });
    const starts = res.body.buckets.map((b: { start: string }) => b.start);
    expect([...starts].sort()).toEqual(starts);
    expect(res.body.top_policies).toEqual([{ policy_id: "no-todo-tokens", violations: 4 }]);
    expect(res.body.top_repositories).toEqual([
      { repository: "acme/payments", evaluations: 2, failed: 2, violations: 3 },
      { repository: "acme/web", evaluations: 2, failed: 1, violations: 1 },
      { repository: "acme/docs", evaluations: 1, failed: 0, violations: 0 },
    ]);

    const theirs = await other.get("/v1/evaluations/stats");
    expect(theirs.body.totals).toEqual({ evaluations: 1, passed: 0, failed: 1, violations: 9 });
    expect(theirs.body.top_repositories.map((r: { repository: string }) => r.repository)).toEqual([
      "initech/secret-repo",
    ]);
  });

  it("takes a range and weekly buckets", async () => {
    const before = await api.get("/v1/evaluations/stats", {
      query: { since: "2026-01-01", until: "2026-01-15", bucket: "week" },
    });
    expect(before.status).toBe(200);
    expect(before.body.totals).toEqual({ evaluations: 0, passed: 0, failed: 0, violations: 0 });
    // 2026-01-01 is a Thursday: its week starts on Monday 2025-12-29.
    expect(before.body.buckets.map((b: { start: string }) => b.start)).toEqual([
      "2025-12-29",
      "2026-01-05",
      "2026-01-12",
    ]);
    expect(before.body.top_policies).toEqual([]);
    const thisWeek = await api.get("/v1/evaluations/stats", {
      query: { since: new Date(Date.now() - 7 * DAY).toISOString(), bucket: "week" },
    });
    expect(thisWeek.body.buckets.reduce((n: number, b: { evaluations: number }) => n + b.evaluations, 0)).toBe(5);
  });

  it("refuses a bad range on its field: 400 for what the schema says, 422 for the rest", async () => {
    expectFieldError(
      await api.get("/v1/evaluations/stats", { query: { since: "yesterday" } }),
      400,
      "since",
      "INVALID_FORMAT",
    );
    expectFieldError(
      await api.get("/v1/evaluations/stats", { query: { bucket: "hour" } }),
      400,
      "bucket",
      "INVALID_ENUM",
    );
    // Matches the schema, but no such day.
    expectFieldError(
      await api.get("/v1/evaluations/stats", { query: { since: "2026-02-30" } }),
      422,
      "since",
      "INVALID_FORMAT",
    );
    expectFieldError(
      await api.get("/v1/evaluations/stats", { query: { since: "2026-02-01", until: "2026-01-01" } }),
      422,
      "since",
      "INVALID_FORMAT",
    );
    expectFieldError(
      await api.get("/v1/evaluations/stats", { query: { since: "2024-01-01", until: "2026-01-01" } }),
      422,
      "since",
      "INVALID_FORMAT",
    );
  });

  it("needs read:evaluations", async () => {
    const key = await api.post("/v1/api-keys", { name: "policies only", scopes: ["read:policies"] });
    const res = await api.withKey(key.body.key).get("/v1/evaluations/stats");
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("AUTH_INSUFFICIENT_SCOPE");
  });
});
