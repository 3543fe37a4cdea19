// An organization's queue caps under a burst, black-box against the real all-in-one process over
// real HTTP: many large asynchronous evaluations of one organization sent at once (a client
// retrying in parallel, or an attacker filling the disk with queued files). What a user sees: no
// more than the cap's worth answered 202, every other one 429 with `details.window: "queued"` and
// `Retry-After`, nothing of a refused one left in the data directory, and the place given back
// when a queued evaluation is deleted. Scans are kept slow (a costly custom policy, stored with
// the budgets relaxed, on one scan thread), so nothing leaves the queue during the burst.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Api, expectError, type ApiResponse } from "../support/api.js";
import { startVerdict, type Verdict, RELAXED_PATTERN_BUDGETS } from "../support/server.js";

/** Seconds per MiB of letters on any machine (see pool.medium.test.ts). */
const HEAVY = (i: number) => String.raw`[\pL\pN]{400}Z${i}`;
/** 40 files (asynchronous from 20) of letters ending in a match of every HEAVY pattern. */
const letters = (kib: number) =>
  Array.from({ length: 40 }, (_, i) => ({ path: `dump/${i}.txt`, content: `${"a".repeat(kib * 1024 - 6)}Z0Z1Z2` }));

const MAX_QUEUED = 2;
const MAX_QUEUED_BYTES = 400 * 1024;

async function slowOrganization(operator: Api, name: string): Promise<Api> {
  const res = await operator.post("/v1/organizations", { name, plan: "team" });
  expect(res.status).toBe(201);
  const org = operator.withKey(res.body.api_key.key);
  const policy = await org.post("/v1/policies", {
    id: "slow",
    name: "Slow",
    severity: "error",
    patterns: [0, 1, 2].map((i) => ({ type: "regex", value: HEAVY(i), message: "slow" })),
  });
  expect(policy.status).toBe(201);
  return org;
}

describe("an organization's queue caps under a burst of concurrent asynchronous evaluations", () => {
  let v: Verdict;
  let operator: Api;
  beforeAll(async () => {
    v = await startVerdict({
      env: {
        VERDICT_SCAN_WORKERS: "1",
        VERDICT_ASYNC_MIN_FILES: "20",
        VERDICT_ASYNC_SCAN_TIMEOUT_MS: "120000",
        VERDICT_ORG_MAX_QUEUED_EVALUATIONS: String(MAX_QUEUED),
        VERDICT_ORG_MAX_QUEUED_BYTES: String(MAX_QUEUED_BYTES),
        // The burst must reach the queue: the gateway's in-flight cap would refuse most of it first.
        VERDICT_ORG_MAX_EVALUATIONS_IN_FLIGHT: "64",
        ...RELAXED_PATTERN_BUDGETS,
      },
    });
    operator = new Api(v.url, v.bootstrapKey);
  });
  afterAll(() => v.destroy());

  /** `n` POSTs of `change` at once; the 202s and the rest. */
  async function burst(org: Api, n: number, change: ReturnType<typeof letters>) {
    const answers = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        org.post("/v1/evaluations", { repository: "noisy/repo", ref: `burst-${i}`, files: change, policies: ["slow"] }),
      ),
    );
    return {
      accepted: answers.filter((r) => r.status === 202),
      refused: answers.filter((r) => r.status !== 202),
    };
  }

  function expectQueueFull(res: ApiResponse, limit: number, message: RegExp) {
    expectError(res, 429, "rate_limited", "RATE_LIMIT_EXCEEDED");
    expect(res.body.details).toEqual({ limit, window: "queued", retry_after: 5 });
    expect(res.body.message).toMatch(message);
    expect(res.headers.get("retry-after")).toBe("5");
  }

  /**
   * The spooled files in the data directory: exactly those of the evaluations queued. The
   * all-in-one always spools queued contents there (launcher.ts), and at least one evaluation
   * was queued, so the directory must exist.
   */
  function expectSpoolHolds(ids: string[]) {
    const spool = join(v.dataDir, "evaluation-queue");
    expect(ids.length).toBeGreaterThan(0);
    expect(existsSync(spool)).toBe(true);
    const owners = new Set(readdirSync(spool).map((f) => f.slice(0, f.lastIndexOf("."))));
    expect([...owners].sort()).toEqual([...ids].sort());
  }

  it("answers 202 to no more than the cap's count, and 429 to the rest, leaving none of their files", async () => {
    const a = await slowOrganization(operator, "Bursty");
    // 160 KiB each: two fit the bytes cap, so the count decides.
    const { accepted, refused } = await burst(a, 12, letters(4));
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    expect(accepted.length).toBeLessThanOrEqual(MAX_QUEUED);
    expect(refused.length + accepted.length).toBe(12);
    for (const res of refused) expectQueueFull(res, MAX_QUEUED, /At most 2 evaluations/);
    for (const res of accepted) expect(res.body.status).toBe("pending");
    expectSpoolHolds(accepted.map((r) => r.body.id));

    // Deleting a queued evaluation gives its place back at once (its scan need not end first).
    for (const res of accepted) expect((await a.delete(`/v1/evaluations/${res.body.id}`)).status).toBe(204);
    const again = await a.post("/v1/evaluations", {
      repository: "noisy/repo",
      ref: "after-delete",
      files: letters(4),
      policies: ["slow"],
    });
    expect(again.status).toBe(202);
    expect((await a.delete(`/v1/evaluations/${again.body.id}`)).status).toBe(204);
  });

  it("answers 202 to no more than fits the bytes cap", async () => {
    const b = await slowOrganization(operator, "Bulky");
    // 300 KiB each: the first is always let in, a second would pass 400 KiB.
    const { accepted, refused } = await burst(b, 8, letters(7.5));
    expect(accepted).toHaveLength(1);
    for (const res of refused) expectQueueFull(res, MAX_QUEUED_BYTES, /bytes an organization may queue/);
    expectSpoolHolds(accepted.map((r) => r.body.id));
    expect((await b.delete(`/v1/evaluations/${accepted[0]!.body.id}`)).status).toBe(204);
  });
});
