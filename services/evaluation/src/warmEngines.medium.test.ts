// Scan threads that replace one terminated at a deadline start with the engines recent scans
// compiled (real scan threads from the build: run `pnpm run build` first), and a synchronous
// scan's deadline counts its time on the threads, not its wait behind another organization.
import { afterEach, describe, expect, it } from "@jest/globals";
import { createLogger, AppError } from "@verdict/kit";
import { FairPool, workerFile } from "@verdict/runtime";
import type { PatternToRun, PolicyToRun } from "./domain/engine.js";
import type { EvaluationDeps } from "./deps.js";
import { policySets } from "./engineCache.js";
import { sharePolicies, type ScanJob, type ScanOutcome } from "./scanJob.js";
import { scanChange } from "./usecases/scan.js";
import { readWarmEntries, WarmEngines } from "./warmEngines.js";

function policy(id: string, value: string): PolicyToRun {
  const pattern: PatternToRun = {
    value,
    message: `${id} found`,
    redact: false,
    redact_group: 0,
    rule_id: `${id}-1`,
    keywords: [],
    min_entropy: 0,
    paths: [],
    allowlist: [],
    generic: false,
  };
  return { id, severity: "error", category: "test", suggestion: `fix ${id}`, patterns: [pattern], exclude_paths: [] };
}

const evalPolicies = [policy("dangerous-eval", String.raw`\beval\s*\(`)];
// Valid RE2 that takes about a second per 64 KiB of letters: it runs into any short deadline.
const costlyPolicies = [policy("costly", String.raw`[\pL\pN]{100}Z0`)];
// Letters ending in a match, in a text file: the engine's one-pass set reports the match at
// once, then the pattern runs alone from every position (about 1.2 s per MiB on an idle machine).
const letters = (kib: number) => new Uint8Array(Buffer.from(`${"a".repeat(kib * 1024 - 2)}Z0`));

const job = (organizationId: string, version: string, policies: PolicyToRun[], content: Uint8Array): ScanJob => ({
  organizationId,
  version,
  policies: sharePolicies(policies),
  files: [{ path: "notes/a.txt", content, status: "modified" }],
  allowSuppression: false,
});
// Versions as the policy service makes them: one per content.
const orgB = () => job("org_b", "v-eval", evalPolicies, new Uint8Array(Buffer.from("eval(x);\n")));
const orgA = (kib = 512) => job("org_a", "v-costly", costlyPolicies, letters(kib));

let pool: FairPool<ScanJob, ScanOutcome> | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

function scanPool(warm?: WarmEngines, spareThreads = 0) {
  pool = new FairPool<ScanJob, ScanOutcome>({
    filename: workerFile(import.meta.url, "./scanWorker.js"),
    threads: 1,
    spareThreads,
    ...(warm ? { workerData: { warm: warm.buffer } } : {}),
  });
  return pool;
}

/** A's costly scan, stopped at a short deadline: its thread is terminated and replaced. */
async function terminateThread(p: FairPool<ScanJob, ScanOutcome>) {
  await expect(p.run("org_a", orgA(), { timeoutMs: 200 })).rejects.toMatchObject({ reason: "deadline" });
}

describe("scan threads replacing a terminated one", () => {
  it("start with the engines recorded by successful scans, so B's next scan compiles nothing", async () => {
    const warm = new WarmEngines();
    const p = scanPool(warm);
    const first = await p.run("org_b", orgB(), { timeoutMs: 30_000 });
    expect(first.compiled).toBe(true);
    expect(first.kept.map((f) => f.policy_id)).toEqual(["dangerous-eval"]);
    warm.record("org_b", "v-eval", evalPolicies);

    await terminateThread(p);
    const after = await p.run("org_b", orgB(), { timeoutMs: 30_000 });
    expect(after.compiled).toBe(false);
    expect(after.kept.map((f) => f.policy_id)).toEqual(["dangerous-eval"]);
  });

  it("compile B's engine again without the recorded sets (what B paid before)", async () => {
    const p = scanPool();
    expect((await p.run("org_b", orgB(), { timeoutMs: 30_000 })).compiled).toBe(true);
    expect((await p.run("org_b", orgB(), { timeoutMs: 30_000 })).compiled).toBe(false);
    await terminateThread(p);
    expect((await p.run("org_b", orgB(), { timeoutMs: 30_000 })).compiled).toBe(true);
  });

  it("do not start with an organization's sets once they are forgotten", async () => {
    const warm = new WarmEngines();
    const p = scanPool(warm);
    await p.run("org_b", orgB(), { timeoutMs: 30_000 });
    warm.record("org_b", "v-eval", evalPolicies);
    warm.forget("org_b");
    await terminateThread(p);
    expect((await p.run("org_b", orgB(), { timeoutMs: 30_000 })).compiled).toBe(true);
  });
});

describe("WarmEngines", () => {
  it("keeps the most recent sets that fit, and rewrites only for a new one", () => {
    const warm = new WarmEngines(64 * 1024, 2);
    expect(readWarmEntries(warm.buffer)).toEqual([]);
    warm.record("org_1", "v-eval", evalPolicies);
    warm.record("org_2", "v-costly", costlyPolicies);
    warm.record("org_1", "v-eval", evalPolicies);
    warm.record("org_3", "v-other", [policy("other", "other")]);
    expect(readWarmEntries(warm.buffer).map((e) => e.organizationId)).toEqual(["org_1", "org_3"]);
    expect(readWarmEntries(warm.buffer)[0]!.policies).toEqual(evalPolicies);
  });

  it("keeps one set per version: organizations whose policies resolve alike share it", () => {
    const warm = new WarmEngines(64 * 1024, 2);
    warm.record("org_1", "v-eval", evalPolicies);
    warm.record("org_2", "v-eval", evalPolicies);
    warm.record("org_3", "v-costly", costlyPolicies);
    expect(readWarmEntries(warm.buffer).map((e) => e.version)).toEqual(["v-eval", "v-costly"]);
    // Forgotten with the organization that recorded it last.
    warm.forget("org_1");
    expect(readWarmEntries(warm.buffer).map((e) => e.version)).toEqual(["v-eval", "v-costly"]);
    warm.forget("org_2");
    expect(readWarmEntries(warm.buffer).map((e) => e.version)).toEqual(["v-costly"]);
  });

  it("leaves out the oldest sets that do not fit in the buffer", () => {
    const big = [policy("big", "x".repeat(600))];
    const warm = new WarmEngines(1_500, 8);
    warm.record("org_1", "v-1", big);
    warm.record("org_2", "v-2", big);
    warm.record("org_3", "v-3", big);
    expect(readWarmEntries(warm.buffer).map((e) => e.organizationId)).toEqual(["org_3"]);
  });

  it("reads nothing from a missing buffer", () => {
    expect(readWarmEntries(undefined)).toEqual([]);
  });
});

describe("a synchronous scan's deadline", () => {
  const deps = (p: FairPool<ScanJob, ScanOutcome>) => {
    const engines = policySets();
    return {
      policy: {
        resolvePolicies: async () => ({ unchanged: false, version: "v1", policies: evalPolicies, policy_ids: [] }),
      },
      engines,
      scanner: p,
      orgSettings: {
        get: async () => ({
          allowInlineSuppression: false,
          requireConnectedRepository: false,
          liveVerification: { enabled: false, providers: [] },
        }),
      },
      logger: createLogger("warm-test", "silent"),
    } as unknown as EvaluationDeps;
  };
  const files = [{ path: "src/a.js", content: Buffer.from("eval(x);\n"), status: "modified" }];

  it("counts the time B's scan runs, not the time it waits behind A's scan", async () => {
    // With a spare thread B runs at once when A's thread is terminated, not after a new one starts.
    const p = scanPool(undefined, 1);
    // A holds the only thread for seconds (until its 2.5 s deadline); B's deadline is 1 s of
    // scanning (room for compiling its engine on a busy machine).
    const a = p.run("org_a", orgA(3072), { timeoutMs: 2_500 }).catch((err: unknown) => err);
    const asked = Date.now();
    const b = await scanChange(deps(p), {
      organizationId: "org_b",
      policies: [],
      files: files,
      limits: { timeoutMs: 1_000, maxWaitMs: 20_000 },
    });
    expect(b.kept.map((f) => f.policy_id)).toEqual(["dangerous-eval"]);
    // B answered although it waited longer than its whole deadline for A's scan to end.
    expect(Date.now() - asked).toBeGreaterThan(1_000);
    await a;
  });

  it("counted from the request (budget wall), fails B with EVALUATION_TIMEOUT behind A's scan", async () => {
    const p = scanPool();
    const a = p.run("org_a", orgA(1024), { timeoutMs: 1_500 }).catch((err: unknown) => err);
    await expect(
      scanChange(deps(p), {
        organizationId: "org_b",
        policies: [],
        files: files,
        limits: { timeoutMs: 500, budget: "wall" },
      }),
    ).rejects.toMatchObject({
      code: "EVALUATION_TIMEOUT",
    });
    await a;
  });

  it("is bounded overall: past maxWaitMs, waiting included, B gets 503 and may retry", async () => {
    const p = scanPool();
    const a = p.run("org_a", orgA(1024), { timeoutMs: 1_500 }).catch((err: unknown) => err);
    const err = await scanChange(deps(p), {
      organizationId: "org_b",
      policies: [],
      files: files,
      limits: { timeoutMs: 500, maxWaitMs: 300 },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).kind).toBe("unavailable");
    expect((err as AppError).message).toMatch(/within 300 ms, waiting included/);
    await a;
  });
});

describe("structural rules on scan threads", () => {
  it("parse and match on a scan thread, and on the thread that replaces a terminated one", async () => {
    const structural: PolicyToRun = {
      ...policy("command-injection", ""),
      patterns: [
        {
          ...policy("command-injection", "").patterns[0]!,
          type: "structural",
          value: JSON.stringify({ languages: ["csharp"], rule: { pattern: "Process.Start($CMD)" } }),
          rule_id: "csharp-process-start",
        },
      ],
    };
    const source = "class A { void M(string c) {\n  // Process.Start(x) in a comment\n  Process.Start(c);\n} }\n";
    const csharpJob = (): ScanJob => ({
      organizationId: "org_c",
      version: "v-structural",
      policies: sharePolicies([structural]),
      files: [{ path: "src/Runner.cs", content: new Uint8Array(Buffer.from(source)), status: "modified" }],
      allowSuppression: false,
    });
    const p = scanPool();
    const first = await p.run("org_c", csharpJob(), { timeoutMs: 30_000 });
    expect(first.kept.map((f) => [f.rule_id, f.line])).toEqual([["csharp-process-start", 3]]);
    await terminateThread(p);
    const after = await p.run("org_c", csharpJob(), { timeoutMs: 30_000 });
    expect(after.kept.map((f) => [f.rule_id, f.line])).toEqual([["csharp-process-start", 3]]);
  });
});
