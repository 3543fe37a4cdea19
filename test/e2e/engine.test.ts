// The evaluation engine as users meet it over HTTP: inline suppression and the organization
// setting that turns it off, skipped files, and large changes evaluated asynchronously.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Api } from "../support/api.js";
import { startVerdict, type Verdict } from "../support/server.js";

let v: Verdict;
let api: Api;
const AWS_KEY = "AKIAZ7VQ3X4M2N8P5R6T";

beforeAll(async () => {
  v = await startVerdict({ env: { VERDICT_ASYNC_MIN_FILES: "5" } });
  api = new Api(v.url, v.bootstrapKey);
});
afterAll(async () => v.destroy());

const evaluate = (files: { path: string; content: string; status?: string }[]) =>
  api.post("/v1/evaluations", { repository: "acme/engine", ref: "main", files });

describe("inline suppression", () => {
  const content = [
    `const fixture = "${AWS_KEY}"; // verdict-ignore aws-credentials: documented test fixture, not a live key`,
    `const real = "AKIAQ4R7T2W9X3Y5Z8B6";`,
  ].join("\n");

  it("silences a marked finding, reports it as a suppression, and keeps the rest", async () => {
    const res = await evaluate([{ path: "test/keys.js", content }]);
    expect(res.status).toBe(201);
    expect(res.body.violations.map((x: { line: number }) => x.line)).toEqual([2]);
    expect(res.body.suppressions).toEqual([
      {
        policy_id: "aws-credentials",
        rule_id: "aws-access-key-id",
        file: "test/keys.js",
        line: 1,
        reason: "documented test fixture, not a live key",
        // The one the finding is reported with when not silenced (compliance tracks it by this).
        fingerprint: expect.stringMatching(/^[0-9a-f]{32}$/),
      },
    ]);
    expect(res.body.summary).toMatchObject({ total_violations: 1, suppressed: 1 });
    expect(res.text).not.toContain(AWS_KEY);
  });

  it("can be turned off for the organization", async () => {
    const org = await api.patch("/v1/organization", { settings: { allow_inline_suppression: false } });
    expect(org.body.settings.allow_inline_suppression).toBe(false);
    const res = await evaluate([{ path: "test/keys.js", content }]);
    expect(res.body.violations.map((x: { line: number }) => x.line)).toEqual([1, 2]);
    expect(res.body.suppressions).toEqual([]);
    await api.patch("/v1/organization", { settings: { allow_inline_suppression: true } });
  });
});

describe("skipped files", () => {
  it("counts lock files, binaries, minified bundles and removed files without scanning them", async () => {
    const res = await evaluate([
      { path: "package-lock.json", content: `{"k": "${AWS_KEY}"}` },
      { path: "dist/app.min.js", content: `var k="${AWS_KEY}";` },
      { path: "img/logo.png", content: `\u0000PNG ${AWS_KEY}` },
      { path: "old.js", content: `const k = "${AWS_KEY}";`, status: "removed" },
    ]);
    expect(res.body).toMatchObject({ passed: true, violations: [], summary: { total_files: 4, skipped_files: 4 } });
  });
});

describe("asynchronous evaluations", () => {
  it("queues a large change with 202 and a Location, then completes it", async () => {
    const files = Array.from({ length: 6 }, (_, i) => ({
      path: `src/m${i}.ts`,
      content: i === 3 ? `export const k = "${AWS_KEY}";\n` : `export const v = ${i};\n`,
    }));
    const res = await evaluate(files);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: "pending", passed: null, completed_at: null, violations: [] });
    expect(res.headers.get("location")).toBe(`/v1/evaluations/${res.body.id}`);
    // Until it is no longer pending: the scan thread compiles the organization's library for its
    // first evaluation, which took more than the 5 s this loop used to allow at load 18-30.
    let done;
    for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
      done = await api.get(`/v1/evaluations/${res.body.id}`);
      if (done.body.status !== "pending") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(done!.body).toMatchObject({
      status: "completed",
      passed: false,
      summary: { total_files: 6, total_violations: 1 },
    });
    expect(done!.body.violations[0]).toMatchObject({ file: "src/m3.ts", policy_id: "aws-credentials" });
    const pendingList = await api.get("/v1/evaluations", { query: { status: "pending" } });
    expect(pendingList.body.evaluations.map((e: { id: string }) => e.id)).not.toContain(res.body.id);
  });
});
