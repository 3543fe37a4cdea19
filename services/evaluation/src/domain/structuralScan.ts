// The engine's structural side: a `structural` pattern compiled with its cheap gates (the file's
// path, keywords it must contain, RE2 conditions on it), the rules of a file's language that
// pass them, and their matches (structural.ts: one parse and one traversal) as the engine's hits.
import RE2 from "re2";
import { utf8Offsets, type ByteLines } from "./bytes.js";
import type { CompiledPolicy, Hit, PatternToRun, PolicyToRun, Reporting } from "./engineTypes.js";
import {
  languageOf,
  matchStructural,
  parseSpec,
  STRUCTURAL_LANGUAGES,
  structuralRule,
  type StructuralLanguage,
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
 * first), matched in one parse and one traversal. `lower` gives the file lower-cased (ASCII), made
 * only when a rule's keywords are checked.
 */
export function structuralScan(
  rules: StructuralRules,
  policies: ReadonlyMap<string, CompiledPolicy>,
  path: string,
  content: Buffer,
  lower: () => Buffer,
  lines: () => ByteLines,
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
  return gated.length ? structuralHits(language, content, gated, lines()) : [];
}

/** The structural rules' matches in the file as hits, at UTF-8 byte offsets. */
function structuralHits(
  language: StructuralLanguage,
  content: Buffer,
  rules: StructuralRule<Structural>[],
  lines: ByteLines,
): Hit[] {
  const text = content.toString("utf8");
  const { matches } = matchStructural(language, text, content.length, rules);
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
