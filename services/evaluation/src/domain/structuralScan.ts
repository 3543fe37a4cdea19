// The engine's structural side: a `structural` pattern compiled with its cheap gates (the file's
// path, keywords it must contain, RE2 conditions on it, the words its patterns spell out), the
// rules of a file's language that pass them, and their matches (structural.ts: one parse, each
// rule once on the tree) as the engine's hits, with what they cost by language.
import { RE2 } from "./re2.js";
import { utf8Offsets, type ByteLines } from "./bytes.js";
import { mayMatch } from "./structuralWords.js";
import type { CompiledPolicy, Hit, PatternToRun, PolicyToRun, Reporting } from "./engineTypes.js";
import {
  checkSpec,
  languageOf,
  matchStructural,
  parseSpec,
  readSpec,
  STRUCTURAL_LANGUAGES,
  structuralRule,
  type StructuralLanguage,
  type StructuralMatch,
  type StructuralRule,
} from "./structural.js";

/** A structural rule with its cheap gates: the file's path, keywords the file must contain, RE2 conditions on the file. */
interface Structural extends Reporting {
  paths: RE2[];
  keywords: Buffer[];
  fileRequires: RE2[];
}

// File conditions read the whole file once: ^ and $ at line boundaries.
const FILE_FLAGS = "mu";

/** What the structural matcher has cost an engine, by language: the files it parsed, their size, and CPU time. */
export interface StructuralCost {
  files: number;
  bytes: number;
  parseSeconds: number;
  matchSeconds: number;
}
export type StructuralCosts = Map<StructuralLanguage, StructuralCost>;

/**
 * A library's structural rules, by language. Compiled up front (the services: a rule ast-grep
 * rejects fails the engine's compilation), or, `lazy`, a language's rules when a file of that
 * language is first scanned, each checked by ast-grep when a file first gets past its gates (the
 * CLI, which scans a few files of one or two languages: checking the library's 60-odd rules costs
 * about 45 ms); then a rule ast-grep rejects fails the scans that would run it, with the same
 * error. Either way a value that is not JSON of languages and a rule fails at once.
 */
export interface StructuralRules {
  /** Compiles (or, lazy, reads) a `structural` pattern into the rules of each of its languages; throws when its value is not a rule. */
  add(policy: PolicyToRun, pattern: PatternToRun, order: number): void;
  /** A language's rules, in the order they were added. */
  of(language: StructuralLanguage): readonly StructuralRule<Structural>[];
  /** Throws, as compiling them up front would have, when ast-grep rejects one of these rules of `language` (lazy). */
  check(language: StructuralLanguage, rules: readonly StructuralRule<Structural>[]): void;
}

export function structuralRules(lazy = false): StructuralRules {
  const compiled = new Map<StructuralLanguage, StructuralRule<Structural>[]>(STRUCTURAL_LANGUAGES.map((l) => [l, []]));
  /** lazy: each language's rules to compile when it is first asked for, in order. */
  const pending = new Map<StructuralLanguage, (() => StructuralRule<Structural>)[]>();
  /** lazy: the rules ast-grep has checked, by language. */
  const checked = new Map<StructuralLanguage, Set<StructuralRule<Structural>>>();
  return {
    add(policy, pattern, order) {
      const owner = (): Structural => ({
        policy,
        pattern,
        order,
        paths: pattern.paths.map((p) => new RE2(p, "u")),
        keywords: pattern.keywords.map((k) => Buffer.from(k.toLowerCase(), "utf8")),
        fileRequires: (pattern.file_requires ?? []).map((p) => new RE2(p, FILE_FLAGS)),
      });
      if (!lazy) {
        const spec = parseSpec(pattern.value, pattern.rule_id);
        const rule = structuralRule(owner(), spec);
        for (const language of spec.languages) compiled.get(language)!.push(rule);
        return;
      }
      const spec = readSpec(pattern.value, pattern.rule_id);
      let rule: StructuralRule<Structural> | undefined; // one for all its languages, as above
      for (const language of spec.languages) {
        const list = pending.get(language) ?? [];
        pending.set(language, list);
        list.push(() => (rule ??= structuralRule(owner(), spec)));
      }
    },
    of(language) {
      const list = pending.get(language);
      if (list) {
        pending.delete(language);
        compiled.get(language)!.push(...list.map((compile) => compile()));
      }
      return compiled.get(language)!;
    },
    check(language, rules) {
      if (!lazy) return;
      const done = checked.get(language) ?? new Set();
      checked.set(language, done);
      for (const rule of rules) {
        if (done.has(rule)) continue;
        // (A rule that fails stays unchecked: every later scan that would run it fails the same way.)
        checkSpec(rule.spec, rule.owner.pattern.rule_id, [language]);
        done.add(rule);
      }
    },
  };
}

/**
 * The structural rules' hits in a file: its language's rules that pass their gates (cheapest
 * first), matched on one parse of the file. `lower` gives the file lower-cased (ASCII), made
 * only when a rule's keywords are checked.
 */
export function structuralScan(
  rules: StructuralRules,
  policies: ReadonlyMap<string, CompiledPolicy>,
  path: string,
  content: Buffer,
  lower: () => Buffer,
  lines: () => ByteLines,
  costs?: StructuralCosts,
): Hit[] {
  const language = languageOf(path);
  if (!language) return [];
  const gated = rules.of(language).filter(
    ({ owner }) =>
      !policies.get(owner.policy.id)!.excluded(path) &&
      (!owner.paths.length || owner.paths.some((p) => p.test(path))) &&
      // RE2 conditions before keywords: they need no lower-cased copy of the file.
      (!owner.fileRequires.length || owner.fileRequires.some((f) => f.test(content))) &&
      (!owner.keywords.length || owner.keywords.some((k) => lower().includes(k))),
  );
  // Then the words its patterns spell out (structuralWords.ts), each looked for once per file.
  const seen = new Map<string, boolean>();
  const has = (word: string) => {
    let found = seen.get(word);
    if (found === undefined) seen.set(word, (found = content.includes(word)));
    return found;
  };
  const ready = gated.filter((r) => mayMatch(r.words, has));
  if (!ready.length) return [];
  rules.check(language, ready);
  const text = content.toString("utf8");
  const { matches, cpu } = matchStructural(language, text, content.length, ready, has);
  if (costs && cpu) {
    const cost = costs.get(language) ?? { files: 0, bytes: 0, parseSeconds: 0, matchSeconds: 0 };
    cost.files++;
    cost.bytes += content.length;
    cost.parseSeconds += cpu.parseMs / 1000;
    cost.matchSeconds += cpu.matchMs / 1000;
    costs.set(language, cost);
  }
  return structuralHits(text, content, matches, lines());
}

/** The structural rules' matches in the file as hits, at UTF-8 byte offsets. */
function structuralHits(
  text: string,
  content: Buffer,
  matches: readonly StructuralMatch<Structural>[],
  lines: ByteLines,
): Hit[] {
  // ast-grep gives UTF-16 offsets; in a file of ASCII text they are the byte offsets, else they
  // are converted in one walk over the text (not a prefix encoded per match: square of the size).
  const ascii = text.length === content.length;
  const offsets = utf8Offsets(text, ascii ? [] : matches.flatMap((m) => [m.start, m.end]));
  const byte = (index: number) => (ascii ? index : offsets.get(index)!);
  return matches.map((m) => {
    const start = byte(m.start);
    return { rule: m.owner, start, end: byte(m.end), line: lines.at(start) };
  });
}
