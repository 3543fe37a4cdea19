// The syntax-aware matcher beside RE2: tree-sitter parsers with ast-grep's rule language
// (@ast-grep/napi, and the @ast-grep/lang-* packages for the languages it does not bundle).
// A structural rule says what RE2 cannot: "a call to X whose argument is not a literal",
// "inside a function", "not in a comment or string", "argument N is a concatenation".
//
// Cost: a file is parsed once per scan (tree-sitter, linear in the file), and only when one of
// the rules of its language passes the cheap gates (path, keywords, its patterns' words) on it; all of that
// language's rules are then matched on that one tree, each rule compiled once per file
// (matchStructural). A per-file budget bounds the rest: files larger than
// STRUCTURAL_MAX_BYTES are not parsed, and checking candidates stops at STRUCTURAL_BUDGET_MS of
// the thread's CPU time.
import type { NapiConfig } from "@ast-grep/napi";
import { astGrep, PARSER, registerLanguages } from "@verdict/structural";
import { compileFlow, FLOW_LANGUAGES, flowMemo, reachesSink, type CompiledFlow, type FlowSpec } from "./flow.js";
import { STRUCTURAL_LANGUAGES, type StructuralLanguage } from "./structuralLanguages.js";
import { ruleBranches, ruleForFile, ruleWords, type RuleBranches, type RuleWords } from "./structuralWords.js";

export { STRUCTURAL_LANGUAGES, type StructuralLanguage };

/**
 * What a `structural` pattern's value holds (JSON): the languages it runs on and an ast-grep
 * rule (https://ast-grep.github.io/reference/rule.html) with its optional metavariable
 * constraints. The finding is reported at the node the rule matches.
 */
export interface StructuralSpec {
  languages: StructuralLanguage[];
  rule: Record<string, unknown>;
  constraints?: Record<string, Record<string, unknown>>;
  /** Report only where a source reaches the sink's metavariable within the function (flow.ts). */
  flow?: FlowSpec;
}

// File extensions by language (lower-case, without the dot).
const EXTENSIONS: Readonly<Record<StructuralLanguage, readonly string[]>> = {
  python: ["py", "pyw"],
  javascript: ["js", "jsx", "mjs", "cjs"],
  typescript: ["ts", "mts", "cts"],
  tsx: ["tsx"],
  java: ["java"],
  go: ["go"],
  ruby: ["rb", "rake", "ru"],
  php: ["php", "php3", "php4", "php5", "php7", "php8", "phtml", "inc"],
  csharp: ["cs"],
  kotlin: ["kt", "kts"],
};

const BY_EXTENSION = new Map<string, StructuralLanguage>(
  STRUCTURAL_LANGUAGES.flatMap((l) => EXTENSIONS[l].map((e) => [e, l] as const)),
);

/** The language a file is parsed as, from its extension; undefined for files of no such language. */
export function languageOf(path: string): StructuralLanguage | undefined {
  const slash = path.lastIndexOf("/");
  const dot = path.lastIndexOf(".");
  if (dot <= slash + 1) return undefined;
  return BY_EXTENSION.get(path.slice(dot + 1).toLowerCase());
}

/** Files larger than this are not parsed (their regex rules still run): parsing is the cost that grows with the file. */
export const STRUCTURAL_MAX_BYTES = 512 * 1024;
/**
 * Checking a file's candidate nodes stops after this much of the scanning thread's CPU time
 * (parsing included): no file or rule stalls a scan. CPU time, not wall time, so that a busy
 * machine (other processes or threads on the cores) does not cut a file's checks short and a
 * scan finds the same on a loaded machine as on an idle one.
 */
export const STRUCTURAL_BUDGET_MS = 250;

/** This thread's CPU time, in milliseconds. */
function threadCpuMs(): number {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
}

/**
 * A check of whether `ms` of this thread's CPU time have passed since the call. A thread's CPU
 * time never runs ahead of the wall clock, so the wall clock (cheap) is read first and the CPU
 * time (a system call) only once the wall clock has passed the budget: never on an idle machine.
 */
export function cpuBudget(ms: number): () => boolean {
  const start = threadCpuMs();
  let deadline = performance.now() + ms;
  return () => {
    if (performance.now() <= deadline) return false;
    const left = ms - (threadCpuMs() - start);
    if (left <= 0) return true;
    deadline = performance.now() + left;
    return false;
  };
}

/** A structural rule as the engine runs it. */
export interface StructuralRule<R> {
  /** What the engine reports for a match (its policy and pattern). */
  owner: R;
  spec: StructuralSpec;
  flow?: CompiledFlow;
  /** Words a file must contain for the rule to match in it (structuralWords.ts); none when unknown. */
  words?: RuleWords;
  /** The rule's `any` branches and their words, when it has such a list. */
  branches?: RuleBranches;
}

/** A structural rule for the engine: its spec parsed, its flow condition compiled, its words read. */
export function structuralRule<R>(owner: R, spec: StructuralSpec): StructuralRule<R> {
  const words = ruleWords(spec.rule);
  const branches = ruleBranches(spec.rule);
  return {
    owner,
    spec,
    ...(spec.flow ? { flow: compileFlow(spec.flow) } : {}),
    ...(words ? { words } : {}),
    ...(branches ? { branches } : {}),
  };
}

/** One match: UTF-16 offsets in the decoded file, as ast-grep gives them. */
export interface StructuralMatch<R> {
  owner: R;
  start: number;
  end: number;
}

export interface StructuralResult<R> {
  matches: StructuralMatch<R>[];
  /** The thread's CPU time the file took, in milliseconds: parsing it, and matching the rules on its tree. */
  cpu?: { parseMs: number; matchMs: number };
  /** Set when the file was not parsed, or its candidates not all checked, within the budget. */
  overBudget?: "size" | "time";
}

/** Parses and validates a structural pattern's value; throws with the reason when it is not one. */
export function parseSpec(value: string, ruleId: string): StructuralSpec {
  const spec = readSpec(value, ruleId);
  checkSpec(spec, ruleId, spec.languages);
  return spec;
}

/** A structural pattern's value read (JSON of languages, a rule and its flow), not yet compiled by ast-grep (checkSpec()). */
export function readSpec(value: string, ruleId: string): StructuralSpec {
  let spec: unknown;
  try {
    spec = JSON.parse(value);
  } catch (e) {
    throw new Error(`structural rule ${ruleId}: the value is not JSON`, { cause: e });
  }
  const s = spec as Partial<StructuralSpec>;
  if (
    typeof s !== "object" ||
    s === null ||
    !Array.isArray(s.languages) ||
    s.languages.length === 0 ||
    !s.languages.every((l) => (STRUCTURAL_LANGUAGES as readonly string[]).includes(l)) ||
    typeof s.rule !== "object" ||
    s.rule === null
  )
    throw new Error(`structural rule ${ruleId}: needs languages (${STRUCTURAL_LANGUAGES.join(", ")}) and a rule`);
  const flow = s.flow;
  if (
    flow !== undefined &&
    (typeof flow.sink !== "string" ||
      !Array.isArray(flow.sources) ||
      flow.sources.length === 0 ||
      (flow.freeNames !== undefined && typeof flow.freeNames !== "boolean") ||
      !(flow.guards ?? []).every((g) => typeof g.value === "string" && typeof g.safe === "boolean") ||
      !(flow.safeReceivers ?? []).every((r) => typeof r.receiver === "string" && Array.isArray(r.made)) ||
      !s.languages.every((l) => FLOW_LANGUAGES.includes(l)))
  )
    throw new Error(
      `structural rule ${ruleId}: a flow needs a sink metavariable and sources, in ${FLOW_LANGUAGES.join(", ")}`,
    );
  return s as StructuralSpec;
}

/**
 * Has ast-grep compile the rule (and its flow's sources and sanitizers) for each of `languages`,
 * on an empty file, so that a rule it rejects fails here, not during a scan.
 */
export function checkSpec(spec: StructuralSpec, ruleId: string, languages: readonly StructuralLanguage[]): void {
  registerLanguages();
  for (const language of languages) {
    try {
      const root = astGrep().parse(PARSER[language], "").root();
      root.findAll(config(spec));
      for (const rule of [...(spec.flow?.sources ?? []), ...(spec.flow?.sanitizers ?? [])])
        root.findAll({ rule } as NapiConfig);
      for (const g of spec.flow?.guards ?? []) {
        root.findAll({ rule: g.rule, ...(g.constraints ? { constraints: g.constraints } : {}) } as NapiConfig);
        for (const rule of g.normalized ?? []) root.findAll({ rule } as NapiConfig);
      }
      for (const r of spec.flow?.safeReceivers ?? [])
        for (const rule of [r.rule, ...r.made]) root.findAll({ rule } as NapiConfig);
    } catch (e) {
      throw new Error(`structural rule ${ruleId} (${language}): ${(e as Error).message}`, { cause: e });
    }
  }
}

const config = (spec: StructuralSpec, rule = spec.rule): NapiConfig =>
  ({ rule, ...(spec.constraints ? { constraints: spec.constraints } : {}) }) as NapiConfig;

/**
 * Matches the rules (all of one language, already gated for this file) on the decoded file: one
 * parse, then each rule found in one native traversal of the tree, its matches checked by its flow
 * condition. @ast-grep/napi compiles a rule object on every call it is given to (its patterns
 * parsed, its regexes built: 0.1-2 ms for a rule of the library), so each rule is given once per
 * file (findAll), never per candidate node (matches() of every candidate by every rule cost more
 * than the traversals), and its matches carry their metavariables for the flow check.
 */
export function matchStructural<R>(
  language: StructuralLanguage,
  text: string,
  bytes: number,
  rules: readonly StructuralRule<R>[],
  /** Whether the file contains a word: a rule's branches whose words it lacks are left out (structuralWords.ts). */
  has?: (word: string) => boolean,
): StructuralResult<R> {
  if (!rules.length) return { matches: [] };
  if (bytes > STRUCTURAL_MAX_BYTES) return { matches: [], overBudget: "size" };
  registerLanguages();
  const spent = cpuBudget(STRUCTURAL_BUDGET_MS);
  const start = threadCpuMs();
  const root = astGrep().parse(PARSER[language], text).root();
  const parsed = threadCpuMs();
  const found: (StructuralMatch<R> & { rule: number })[] = [];
  const memo = flowMemo();
  let overBudget: "time" | undefined;
  rules: for (let i = 0; i < rules.length; i++) {
    const rule = rules[i]!;
    const given = has && rule.branches ? ruleForFile(rule.branches, has) : rule.spec.rule;
    for (const node of root.findAll(config(rule.spec, given))) {
      if (spent()) {
        overBudget = "time";
        break rules;
      }
      if (rule.flow && !reachesSink(language, node, rule.flow, memo)) continue;
      const range = node.range();
      found.push({ owner: rule.owner, start: range.start.index, end: range.end.index, rule: i });
    }
  }
  // In the order of the tree (an enclosing node first), then of the rules.
  found.sort((a, b) => a.start - b.start || b.end - a.end || a.rule - b.rule);
  const matches = found.map(({ owner, start, end }) => ({ owner, start, end }));
  const cpu = { parseMs: parsed - start, matchMs: threadCpuMs() - parsed };
  return overBudget ? { matches, cpu, overBudget } : { matches, cpu };
}
