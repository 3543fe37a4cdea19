// `verdict evaluate --offline`: the engine of the evaluation service run in the CLI's process, on
// the organization's policy set pulled earlier (`verdict policies pull`) or, without one, the
// built-in library as a new organization has it. No network call: for pre-commit hooks.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { compileEngine, MAX_VIOLATIONS, notChecked, summarize, type Finding } from "@verdict/evaluation/offline";

export { loadAddons } from "@verdict/evaluation/offline";
import type { ListedPolicy } from "@verdict/policy/offline";
import { normalizeBaseUrl, type Evaluation, type VerdictClient } from "@verdict/sdk";
import type { MergedEvaluation } from "./batches.js";
import { builtinEffective, builtinResolution, policyLibrary, type Resolution } from "./builtinPolicies.js";
import { selectPolicies } from "./commands/shared.js";
import { policyCachePath } from "./config.js";
import { CliError } from "./errors.js";
import type { TextScanner } from "./historyScan.js";
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

export { policyCachePath };

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
  run: Resolution["policies"];
  /** The policy service's version of the same set. */
  version: string;
  /** Where the set came from, for people. */
  source: string;
  blocking: boolean;
  allowSuppression: boolean;
}

/**
 * The policies to run offline: every enabled one, or those among `ids` and in `categories`
 * (selectPolicies()); without a pulled set, the built-ins (builtinResolution(): made at build
 * time in the single file when every enabled one runs).
 */
export async function offlinePolicies(
  cache: PolicyCache | null,
  ids: readonly string[],
  categories: readonly string[] = [],
): Promise<OfflinePolicies> {
  const chosen = async (): Promise<Resolution> => {
    const library = await policyLibrary();
    const all = cache ? library.effectiveFromListed(cache.policies) : await builtinEffective();
    return library.resolveEffective(all, selectPolicies(all, ids, categories));
  };
  const { policies, version, unknown } =
    cache || ids.length || categories.length ? await chosen() : await builtinResolution();
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

/**
 * Up to this many bytes in all, the engine leaves out the regex rules that cannot match in the
 * files (compileEngine's `texts`: a typical commit wakes a dozen of 700, and the set of those
 * compiles in a fraction of the time). Above it, the whole set: most rules would stay anyway.
 */
const GATED_BYTES = 4 * 1024 * 1024;

/**
 * Scans the files in this process and answers as the API would (no id: nothing was stored).
 * `lineOf`: where a line of a file's text is in the file the finding names (a text made of a
 * file's added lines: `verdict evaluate --staged`); a finding or suppression on a line it has no
 * place for is left out (none is: each line of such a text has one).
 */
export function evaluateOffline(
  policies: OfflinePolicies,
  files: { path: string; status: string; content: Buffer }[],
  envelope: { repository: string; ref: string; base_ref?: string },
  lineOf?: (file: number, line: number) => number | undefined,
): MergedEvaluation & { policy_version: string } {
  const bytes = files.reduce((n, f) => n + f.content.length, 0);
  const engine = compileEngine(policies.run, { lazyRules: true, ...(bytes <= GATED_BYTES ? { texts: files } : {}) });
  const started = new Date().toISOString();
  let room = MAX_VIOLATIONS;
  const placed = <T extends { line: number }>(file: number, list: T[]): T[] =>
    list.flatMap((f) => {
      const line = lineOf!(file, f.line);
      return line === undefined ? [] : [{ ...f, line }];
    });
  const scans = files.map((f, i) => {
    const scan = engine.scan(f.path, f.content, { allowSuppression: policies.allowSuppression, limit: room });
    room -= scan.findings.length;
    return lineOf ? { ...scan, findings: placed(i, scan.findings), suppressions: placed(i, scan.suppressions) } : scan;
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
