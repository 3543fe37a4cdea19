// `verdict evaluate --offline`: the engine of the evaluation service run in the CLI's process, on
// the organization's policy set pulled earlier (`verdict policies pull`) or, without one, the
// built-in library as a new organization has it. No network call: for pre-commit hooks.
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { availableParallelism, homedir } from "node:os";
import { dirname, join } from "node:path";
import { isSea } from "node:sea";
import { Worker } from "node:worker_threads";
import { compileEngine, MAX_VIOLATIONS, notChecked, summarize, type Finding } from "@verdict/evaluation/offline";
import { effectiveFromListed, resolveEffective, type ListedPolicy } from "@verdict/policy/offline";
import { normalizeBaseUrl, type Evaluation, type VerdictClient } from "@verdict/sdk";
import type { MergedEvaluation } from "./batches.js";
import { builtinEffective, builtinResolution } from "./builtinPolicies.js";
import { selectPolicies } from "./commands/shared.js";
import { CliError } from "./errors.js";
import type { TextScanner, TextsScanner } from "./historyScan.js";
import type { ScanReply, ScanRequest } from "./scanThread.js";
import { VERSION } from "./version.js";

/** What `verdict policies pull` stores: the organization's policies as the API lists them, and its settings that decide a verdict. */
export interface PolicyCache {
  format: 1;
  url: string;
  fetched_at: string;
  policies: ListedPolicy[];
  /** Unknown when the key could not read the organization (no read:org): then a failure blocks, and suppression comments count. */
  require_evaluation_pass?: boolean;
  allow_inline_suppression?: boolean;
}

/** $VERDICT_POLICY_CACHE, else $XDG_CACHE_HOME/verdict/policies.json (~/.cache/…). */
export function policyCachePath(env: NodeJS.ProcessEnv): string {
  if (env.VERDICT_POLICY_CACHE) return env.VERDICT_POLICY_CACHE;
  return join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "verdict", "policies.json");
}

/** Fetches the organization's policies (every one in full: settings and patterns) and its settings. */
export async function pullPolicies(client: VerdictClient): Promise<PolicyCache> {
  const { policies } = await client.listPolicies();
  const full: ListedPolicy[] = [];
  for (const p of policies) full.push((await client.getPolicy(p.id)) as ListedPolicy);
  const cache: PolicyCache = { format: 1, url: client.baseUrl, fetched_at: new Date().toISOString(), policies: full };
  try {
    const { settings } = await client.getOrganization();
    cache.require_evaluation_pass = settings.require_evaluation_pass;
    cache.allow_inline_suppression = settings.allow_inline_suppression;
  } catch {
    // a key without read:org: the defaults that are safe (a failure blocks)
  }
  return cache;
}

export function writePolicyCache(path: string, cache: PolicyCache): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(cache) + "\n");
}

/** The cache pulled from `url`; null when there is none (or it is another server's). A file that cannot be used is an error. */
export function readPolicyCache(path: string, url: string): PolicyCache | null {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return null;
  }
  let cache: PolicyCache;
  try {
    cache = JSON.parse(text) as PolicyCache;
  } catch {
    throw new CliError(`policy cache ${path} cannot be used: not JSON (run 'verdict policies pull' again)`);
  }
  if (cache.format !== 1 || !Array.isArray(cache.policies))
    throw new CliError(`policy cache ${path} cannot be used: unknown format (run 'verdict policies pull' again)`);
  return normalizeBaseUrl(cache.url) === normalizeBaseUrl(url) ? cache : null;
}

/** The policies an offline evaluation runs, and what to say about them. */
export interface OfflinePolicies {
  run: ReturnType<typeof resolveEffective>["policies"];
  /** The policy service's version of the same set. */
  version: string;
  /** Where the set came from, for people. */
  source: string;
  blocking: boolean;
  allowSuppression: boolean;
}

/**
 * The policies to run offline: every enabled one, or those among `ids` and in `categories`
 * (selectPolicies()); without a pulled set, the built-ins (resolved once, in the single file's
 * snapshot when every enabled one runs).
 */
export function offlinePolicies(
  cache: PolicyCache | null,
  ids: readonly string[],
  categories: readonly string[] = [],
): OfflinePolicies {
  const all = cache ? effectiveFromListed(cache.policies) : builtinEffective();
  const { policies, version, unknown } =
    cache || ids.length || categories.length
      ? resolveEffective(all, selectPolicies(all, ids, categories))
      : builtinResolution();
  if (unknown.length) throw new CliError(`unknown polic${unknown.length === 1 ? "y" : "ies"}: ${unknown.join(", ")}`);
  return {
    run: policies,
    version,
    source: cache
      ? `pulled from ${cache.url} at ${cache.fetched_at}`
      : `the built-in library of verdict ${VERSION}; 'verdict policies pull' fetches the organization's`,
    blocking: cache?.require_evaluation_pass ?? true,
    allowSuppression: cache?.allow_inline_suppression ?? true,
  };
}

/** One engine for many texts (`scan history --offline`): a text's findings, every one. */
export function offlineScanner(policies: OfflinePolicies): TextScanner {
  const engine = compileEngine(policies.run, { lazyRules: true });
  const options = { allowSuppression: policies.allowSuppression };
  // No provider is asked offline: a credential one could verify says so, as the server's scan does.
  return (path, content) => notChecked(engine.scan(path, content, options).findings) as ReturnType<TextScanner>;
}

/** Texts sent to a scan thread at once, at most (a larger text goes alone): small enough that the threads finish together. */
const CHUNK_BYTES = 64 * 1024;

/** Engine threads for `scan history --offline` by default: at most this many. */
export const MAX_SCAN_THREADS = 4;

/**
 * One per core the process may use but one (the CLI's thread and git need about a core), at least
 * one and at most MAX_SCAN_THREADS. On 2 busy cores a second engine thread cost 10% more CPU for
 * no less wall time (docs/performance.md).
 */
export const defaultScanThreads = (): number => Math.max(1, Math.min(availableParallelism() - 1, MAX_SCAN_THREADS));

/** The texts of one scan() call, in chunks of at most CHUNK_BYTES (a larger text alone): [start, end) indexes. */
function chunksOf(texts: { content: Buffer }[]): [number, number][] {
  const chunks: [number, number][] = [];
  let start = 0;
  let bytes = 0;
  texts.forEach((t, i) => {
    if (i > start && bytes + t.content.length > CHUNK_BYTES) {
      chunks.push([start, i]);
      start = i;
      bytes = 0;
    }
    bytes += t.content.length;
  });
  if (start < texts.length) chunks.push([start, texts.length]);
  return chunks;
}

/**
 * The engine on `count` threads of their own (scanThread.js, beside the command's entry), for
 * many texts at once: scan() resolves with each text's findings, as offlineScanner() gives them.
 * The texts go in chunks to whichever thread is free (first come, first served across calls, so
 * a later call's texts start while an earlier one's last chunk is scanned). Null in the single
 * executable (one file: no module to start a thread from) or where the command has no such file
 * beside it: then this thread scans.
 */
export function offlineThreads(
  policies: OfflinePolicies,
  count: number,
): { scan: TextsScanner; close: () => Promise<void> } | null {
  if (isSea()) return null;
  let entry: string;
  try {
    entry = join(dirname(realpathSync(process.argv[1] ?? "")), "scanThread.js");
  } catch {
    return null;
  }
  if (!existsSync(entry)) return null;
  type Findings = ReturnType<TextScanner>;
  interface Call {
    texts: { path: string; content: Buffer }[];
    findings: Findings[];
    left: number;
    resolve: (f: Findings[]) => void;
    reject: (e: Error) => void;
  }
  const queue: { call: Call; start: number; end: number }[] = [];
  const calls = new Set<Call>();
  let failure: Error | undefined;
  const fail = (err: Error) => {
    failure ??= err;
    for (const c of calls) c.reject(failure);
    calls.clear();
    queue.length = 0;
  };
  let next = 0;
  const threads = Array.from({ length: Math.max(1, count) }, () => {
    const worker = new Worker(entry, {
      workerData: { run: policies.run, allowSuppression: policies.allowSuppression },
    });
    const thread = { worker, busy: undefined as { id: number; call: Call; start: number } | undefined };
    worker.on("message", (reply: ScanReply) => {
      const job = thread.busy;
      thread.busy = undefined;
      if (!job || job.id !== reply.id || !calls.has(job.call)) return;
      if ("error" in reply) return fail(new CliError(`the scan thread failed: ${reply.error}`));
      reply.findings.forEach((f, i) => (job.call.findings[job.start + i] = f as Findings));
      if (--job.call.left === 0) {
        calls.delete(job.call);
        job.call.resolve(job.call.findings);
      }
      pump();
    });
    worker.on("error", (err) => fail(new CliError(`the scan thread failed: ${err.message}`)));
    worker.on("exit", (code) => fail(new CliError(`the scan thread stopped (exit ${code})`)));
    return thread;
  });
  /** Gives each free thread the next chunk. */
  const pump = () => {
    for (const thread of threads) {
      if (thread.busy || !queue.length) continue;
      const { call, start, end } = queue.shift()!;
      const texts = call.texts.slice(start, end);
      // One buffer of its own (never Node's shared pool), moved to the thread, not copied.
      const bytes = new Uint8Array(texts.reduce((n, t) => n + t.content.length, 0));
      const ends: number[] = [];
      for (const t of texts) {
        bytes.set(t.content, ends.at(-1) ?? 0);
        ends.push((ends.at(-1) ?? 0) + t.content.length);
      }
      const id = next++;
      thread.busy = { id, call, start };
      const request: ScanRequest = { id, paths: texts.map((t) => t.path), bytes: bytes.buffer, ends };
      thread.worker.postMessage(request, [bytes.buffer]);
    }
  };
  return {
    scan: (texts) => {
      if (failure) return Promise.reject(failure);
      if (!texts.length) return Promise.resolve([]);
      return new Promise((resolve, reject) => {
        const chunks = chunksOf(texts);
        const call: Call = { texts, findings: [], left: chunks.length, resolve, reject };
        calls.add(call);
        for (const [start, end] of chunks) queue.push({ call, start, end });
        pump();
      });
    },
    close: async () => {
      await Promise.all(threads.map((t) => t.worker.terminate()));
    },
  };
}

/**
 * Up to this many bytes in all, the engine leaves out the regex rules that cannot match in the
 * files (compileEngine's `texts`: a typical commit wakes a dozen of 700, and the set of those
 * compiles in a fraction of the time). Above it, the whole set: most rules would stay anyway.
 */
const GATED_BYTES = 4 * 1024 * 1024;

/** Scans the files in this process and answers as the API would (no id: nothing was stored). */
export function evaluateOffline(
  policies: OfflinePolicies,
  files: { path: string; status: string; content: Buffer }[],
  envelope: { repository: string; ref: string; base_ref?: string },
): MergedEvaluation & { policy_version: string } {
  const bytes = files.reduce((n, f) => n + f.content.length, 0);
  const engine = compileEngine(policies.run, { lazyRules: true, ...(bytes <= GATED_BYTES ? { texts: files } : {}) });
  const started = new Date().toISOString();
  let room = MAX_VIOLATIONS;
  const scans = files.map((f) => {
    const scan = engine.scan(f.path, f.content, { allowSuppression: policies.allowSuppression, limit: room });
    room -= scan.findings.length;
    return scan;
  });
  const outcome = summarize(files.length, scans);
  const violations = notChecked(outcome.kept).map((v: Finding) => ({ id: "", ...v })) as Evaluation["violations"];
  return {
    id: null,
    evaluations: [],
    status: "completed",
    repository: envelope.repository,
    ref: envelope.ref,
    base_ref: envelope.base_ref ?? null,
    created_at: started,
    completed_at: new Date().toISOString(),
    passed: outcome.passed,
    summary: outcome.summary,
    violations,
    suppressions: outcome.suppressions as Evaluation["suppressions"],
    policy_version: policies.version,
  } as MergedEvaluation & { policy_version: string };
}
