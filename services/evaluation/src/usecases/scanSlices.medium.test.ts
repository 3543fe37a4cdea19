// scanChange's slices on the real scan threads (FairPool, one thread; run `pnpm run build`
// first): another organization's scan gets the thread between two slices of a large one. The
// policies come from a fake of the policy service (test/fakes.ts): no gRPC server.
import { afterAll, describe, expect, it } from "@jest/globals";
import { FairPool, workerFile } from "@verdict/runtime";
import { builtinPolicyClient, scanDeps } from "../../test/fakes.js";
import type { EvaluationDeps } from "../deps.js";
import { policySets, type EngineCache, type PolicySet } from "../engineCache.js";
import type { ScanJob, ScanOutcome } from "../scanJob.js";
import { scanChange } from "./scan.js";

const scanner = new FairPool<ScanJob, ScanOutcome>({
  filename: workerFile(import.meta.url, "../scanWorker.js"),
  threads: 1,
});
afterAll(() => scanner.close());

const deps = (engines: EngineCache<PolicySet>) => ({ d: scanDeps(engines, scanner, builtinPolicyClient().client) });
const limits = { timeoutMs: 30_000 };
const files = [{ path: "src/run.js", content: Buffer.from("run(eval(input));\n"), status: "modified" }];

describe("scanChange in slices, on a scan thread", () => {
  it("lets another organization's scan through between two slices of a large one, on one thread", async () => {
    const { d } = deps(policySets());
    // About 20 MB: seconds of scanning on one thread.
    const large = Array.from({ length: 40 }, (_, i) => ({
      path: `gen/${i}.js`,
      content: Buffer.from(`${"const total = items.reduce((sum, item) => sum + item.price, 0);\n".repeat(8000)}`),
      status: "added",
    }));
    const order: string[] = [];
    await scanChange(d, { organizationId: "org_small", policies: [], files: files, limits: limits }); // both engines compiled before the race
    await scanChange(d, { organizationId: "org_large", policies: [], files: files, limits: limits });
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
    const a = scanChange(watched, { organizationId: "org_large", policies: [], files: large, limits: limits }).then(
      () => order.push("large"),
    );
    await firstSlice;
    const b = scanChange(watched, { organizationId: "org_small", policies: [], files: files, limits: limits }).then(
      () => order.push("small"),
    );
    await Promise.all([a, b]);
    expect(largeSlices).toBeGreaterThan(2);
    expect(order).toEqual(["small", "large"]);
  });
});
