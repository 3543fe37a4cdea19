// The engine's structural side: a `structural` pattern compiled with its cheap gates (the file's
// path, keywords it must contain, RE2 conditions on it, the words its patterns spell out), the
// rules of a file's language that pass them, and their matches (structural.ts: one parse, each
// rule once on the tree) as the engine's hits, with what they cost by language.
import RE2 from "re2";
import { utf8Offsets, type ByteLines } from "./bytes.js";
import { mayMatch } from "./structuralWords.js";
import type { CompiledPolicy, Hit, PatternToRun, PolicyToRun, Reporting } from "./engineTypes.js";
import {
  languageOf,
  matchStructural,
  parseSpec,
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

/** A library's structural rules, by language. */
export type StructuralRules = ReadonlyMap<StructuralLanguage, StructuralRule<Structural>[]>;

/** What the structural matcher has cost an engine, by language: the files it parsed, their size, and CPU time. */
export interface StructuralCost {
  files: number;
  bytes: number;
  parseSeconds: number;
  matchSeconds: number;
}
export type StructuralCosts = Map<StructuralLanguage, StructuralCost>;

export function structuralRules(): Map<StructuralLanguage, StructuralRule<Structural>[]> {
  return new Map(STRUCTURAL_LANGUAGES.map((l) => [l, []]));
}

/** Compiles a `structural` pattern into the library's rules of each of its languages; throws when its value is not a rule. */
export function addStructural(
  rules: Map<StructuralLanguage, StructuralRule<Structural>[]>,
  policy: PolicyToRun,
  pattern: PatternToRun,
  order: number,
): void {
  const spec = parseSpec(pattern.value, pattern.rule_id);
  const owner: Structural = {
    policy,
    pattern,
    order,
    paths: pattern.paths.map((p) => new RE2(p, "u")),
    keywords: pattern.keywords.map((k) => Buffer.from(k.toLowerCase(), "utf8")),
    fileRequires: (pattern.file_requires ?? []).map((p) => new RE2(p, FILE_FLAGS)),
  };
  const compiled = structuralRule(owner, spec);
  for (const language of spec.languages) rules.get(language)!.push(compiled);
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
  const gated = rules.get(language)!.filter(
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
