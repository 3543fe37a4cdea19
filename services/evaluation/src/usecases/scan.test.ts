// scanChange on fakes (see test/fakes.ts): the built-in policies answered as the policy service
// answers them, and each scan job run on this thread with the scan threads' code; the engine
// cache made small enough to evict: what the policy service is asked, and that every answer
// leads to the right engine.
import { describe, expect, it } from "@jest/globals";
import { builtinPolicyClient, inThreadScanner, scanDeps } from "../../test/fakes.js";
import { sliceFiles } from "../domain/evaluation.js";
import { policySets, type EngineCache, type PolicySet } from "../engineCache.js";
import { sharePolicies } from "../scanJob.js";
import { SCAN_SLICE_BYTES, scanChange } from "./scan.js";

const scanner = inThreadScanner();

/** Deps whose policy client records every request and answer. */
function deps(engines: EngineCache<PolicySet>) {
  const { client, calls } = builtinPolicyClient();
  return { d: scanDeps(engines, scanner, client), calls };
}

const limits = { timeoutMs: 30_000 };
const files = [{ path: "src/run.js", content: Buffer.from("run(eval(input));\n"), status: "modified" }];

describe("scanChange and the policy version", () => {
  it("sends the version it holds and reuses the engine while the policy service says unchanged", async () => {
    const { d, calls } = deps(policySets());
    const first = await scanChange(d, { organizationId: "org_scan_a", policies: [], files: files, limits: limits });
    const second = await scanChange(d, { organizationId: "org_scan_a", policies: [], files: files, limits: limits });
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
    await scanChange(d, { organizationId: "org_scan_b", policies: [], files: files, limits: limits });
    await scanChange(d, { organizationId: "org_scan_c", policies: ["dangerous-eval"], files: files, limits: limits }); // evicts org_scan_b's engine
    calls.length = 0;
    const again = await scanChange(d, { organizationId: "org_scan_b", policies: [], files: files, limits: limits });
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
    const sliced = await scanChange(d, { organizationId: "org_slices", policies: [], files: many, limits: limits });
    const { engine, version } = d.engines.peek(d.engines.lastVersion("org_slices", [])!)!;
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
    // What the engine read, in order, across slices: compliance evidence (the removed file is not).
    expect(sliced.scanned_paths).toEqual(whole.scanned_paths);
    expect(sliced.scanned_paths).toEqual(many.filter((f) => f.status !== "removed").map((f) => f.path));
  });
});

describe("scanChange's record of what it read", () => {
  it("lists the files the engine read: not removed, lock, binary or empty files", async () => {
    const { d } = deps(policySets());
    const file = (path: string, content: string, status = "modified") => ({
      path,
      content: Buffer.from(content),
      status,
    });
    const result = await scanChange(d, {
      organizationId: "org_read",
      policies: [],
      files: [
        file("package-lock.json", '{"lockfileVersion": 3}\n'),
        file("assets/logo.png", "\u0000PNG"),
        file("src/empty.js", ""),
        file("src/gone.js", "x", "removed"),
        file("README.md", "# Read me\n"),
        file("src/app.js", "run();\n"),
      ],
      limits,
    });
    expect(result.scanned_paths).toEqual(["README.md", "src/app.js"]);
    expect(result.summary).toMatchObject({ total_files: 6, skipped_files: 3 });
  });
});

describe("scanChange's threads", () => {
  /** A scanner that counts the jobs it ran. */
  const counting = () => {
    const inner = inThreadScanner();
    const ran: string[] = [];
    const run: typeof inner.run = (key, job, opts) => {
      ran.push(key);
      return inner.run(key, job, opts);
    };
    return { ran, scanner: { ...inner, run } };
  };

  it("runs a queued evaluation's scan on the queued scanner, a synchronous one on the scanner", async () => {
    const sync = counting();
    const queued = counting();
    const { client } = builtinPolicyClient();
    const d = { ...scanDeps(policySets(), sync.scanner, client), queuedScanner: queued.scanner };
    const now = await scanChange(d, { organizationId: "org_threads", policies: [], files: files, limits: limits });
    const later = await scanChange(d, {
      organizationId: "org_threads",
      policies: [],
      files: files,
      limits: { ...limits, budget: "thread", queued: true },
    });
    expect(later.kept).toEqual(now.kept);
    expect(sync.ran).toEqual(["org_threads"]);
    expect(queued.ran).toEqual(["org_threads"]);
  });
});
