// scanChange against a real policy service over gRPC, with the engine cache made small enough
// to evict: what the policy service is asked, and that every answer leads to the right engine.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { createLogger, systemClock, type AsyncClient } from "@verdict/kit";
import type { policyV1 } from "@verdict/proto";
import { startPolicyHarness, type PolicyHarness } from "../../../policy/test/harness.js";
import type { EvaluationDeps } from "../deps.js";
import { FairPool, workerFile } from "@verdict/runtime";
import { sliceFiles, type Outcome } from "../domain/evaluation.js";
import { policySets, type EngineCache, type PolicySet } from "../engineCache.js";
import { sharePolicies, type ScanJob } from "../scanJob.js";
import { SCAN_SLICE_BYTES, scanChange } from "./scan.js";

type ResolveRequest = policyV1.ResolvePoliciesRequest;
type ResolveResponse = policyV1.ResolvePoliciesResponse;

let h: PolicyHarness;
// The real scan threads (from the build: run `pnpm run build` first).
const scanner = new FairPool<ScanJob, Outcome>({
  filename: workerFile(import.meta.url, "../scanWorker.js"),
  threads: 1,
});
beforeAll(async () => (h = await startPolicyHarness()));
afterAll(async () => {
  await h.stop();
  await scanner.close();
});

/** Deps whose policy client records every request and answer that crossed the wire. */
function deps(engines: EngineCache<PolicySet>) {
  const calls: { req: ResolveRequest; res: ResolveResponse }[] = [];
  const policy: Pick<AsyncClient<typeof policyV1.PolicyServiceService>, "resolvePolicies"> = {
    async resolvePolicies(req) {
      const res = await h.client.resolvePolicies(req);
      calls.push({ req, res });
      return res;
    },
  };
  const d = {
    policy,
    engines,
    scanner,
    orgSettings: { get: async () => ({ allowInlineSuppression: true }) },
    clock: systemClock,
    logger: createLogger("scan-test", "silent"),
  } as unknown as EvaluationDeps;
  return { d, calls };
}

const limits = { timeoutMs: 30_000 };
const files = [{ path: "src/run.js", content: Buffer.from("run(eval(input));\n"), status: "modified" }];

describe("scanChange and the policy version", () => {
  it("sends the version it holds and reuses the engine while the policy service says unchanged", async () => {
    const { d, calls } = deps(policySets());
    const first = await scanChange(d, "org_scan_a", [], files, limits);
    const second = await scanChange(d, "org_scan_a", [], files, limits);
    expect(second.kept).toEqual(first.kept);
    expect(second.policies).toEqual(first.policies);
    expect(first.policies).toContain("dangerous-eval");
    expect(calls.map((c) => [c.req.known_version, c.res.unchanged, c.res.policies.length > 0])).toEqual([
      [undefined, false, true],
      [calls[0]!.res.version, true, false],
    ]);
  });

  it("asks again for the policies when its engine was evicted in the meantime", async () => {
    const engines = policySets(1);
    const { d, calls } = deps(engines);
    await scanChange(d, "org_scan_b", [], files, limits);
    await scanChange(d, "org_scan_c", ["dangerous-eval"], files, limits); // evicts org_scan_b's engine
    calls.length = 0;
    const again = await scanChange(d, "org_scan_b", [], files, limits);
    expect(again.kept.map((f) => f.policy_id)).toEqual(["dangerous-eval"]);
    expect(calls.map((c) => [c.req.known_version !== undefined, c.res.unchanged])).toEqual([
      [true, true],
      [false, false],
    ]);
  });
});

describe("scanChange in slices", () => {
  // 1.2 MB of code over 24 files: three slices of SCAN_SLICE_BYTES.
  const many = Array.from({ length: 24 }, (_, i) => ({
    path: `src/m${i}.js`,
    content: Buffer.from(
      `${"const total = items.reduce((sum, item) => sum + item.price, 0);\n".repeat(780)}run(eval(input${i}));\nconst password = "Tr0ub4dor&3x9Q${i}";\n`,
    ),
    status: i === 5 ? "removed" : "modified",
  }));

  it("gives the same result as one scan of every file", async () => {
    const { d } = deps(policySets());
    expect(sliceFiles(many, SCAN_SLICE_BYTES).length).toBeGreaterThan(2);
    const sliced = await scanChange(d, "org_slices", [], many, limits);
    const { engine, version } = d.engines.peek("org_slices", d.engines.lastVersion("org_slices", [])!)!;
    const whole = await scanner.run(
      "org_slices",
      { organizationId: "org_slices", version, policies: sharePolicies(engine), files: many, allowSuppression: true },
      limits,
    );
    expect(sliced.summary).toEqual(whole.summary);
    expect(sliced.summary).toMatchObject({ total_files: 24, skipped_files: 1 });
    expect(sliced.summary.errors).toBeGreaterThanOrEqual(23);
    expect(sliced.kept).toEqual(whole.kept);
    expect(sliced.passed).toBe(false);
  });

  it("lets another organization's scan through between two slices of a large one, on one thread", async () => {
    const { d } = deps(policySets());
    // About 20 MB: seconds of scanning on one thread.
    const large = Array.from({ length: 40 }, (_, i) => ({
      path: `gen/${i}.js`,
      content: Buffer.from(`${"const total = items.reduce((sum, item) => sum + item.price, 0);\n".repeat(8000)}`),
      status: "added",
    }));
    const order: string[] = [];
    await scanChange(d, "org_small", [], files, limits); // both engines compiled before the race
    await scanChange(d, "org_large", [], files, limits);
    // No timing: the small scan is asked for once the large one's first slice runs, and the large
    // one's later slices reach the pool only after the small scan has (a scan sent as one job
    // would finish before it).
    let firstSliceRunning!: () => void;
    const firstSlice = new Promise<void>((resolve) => (firstSliceRunning = resolve));
    let smallSent!: () => void;
    const smallInPool = new Promise<void>((resolve) => (smallSent = resolve));
    let largeSlices = 0;
    const watched = {
      ...d,
      scanner: {
        run: async (key: string, job: ScanJob, opts: Parameters<typeof scanner.run>[2]) => {
          if (key === "org_small") smallSent();
          else if (largeSlices++ > 0) await smallInPool;
          return scanner.run(key, job, {
            ...opts,
            onStart: () => {
              opts?.onStart?.();
              if (key === "org_large") firstSliceRunning();
            },
          });
        },
      },
    } as unknown as EvaluationDeps;
    const a = scanChange(watched, "org_large", [], large, limits).then(() => order.push("large"));
    await firstSlice;
    const b = scanChange(watched, "org_small", [], files, limits).then(() => order.push("small"));
    await Promise.all([a, b]);
    expect(largeSlices).toBeGreaterThan(2);
    expect(order).toEqual(["small", "large"]);
  });
});
