// The words a file must contain for a structural rule to match in it, read from the rule's
// patterns: a cheap gate before the file is parsed and before the rule is given to ast-grep (which
// compiles the rule on every call: its patterns parsed, its regexes built). A string pattern (the
// default, "smart", strictness) matches only nodes whose every token the pattern spells out is in
// the file as written, so each identifier-like word of it outside a metavariable is a substring
// of any file it matches in. Exact, never a guess: a rule whose words are not known (no pattern,
// a pattern object with its own strictness) has no such gate.

/** Alternatives: the rule can match only in a file that contains every word of one of them. */
export type RuleWords = readonly (readonly string[])[];

// Runs of identifier characters; one that follows `$` is a metavariable's name (`$X`, `$$$ARGS`).
const WORD = /\$*[A-Za-z0-9_]+/g;

function patternWords(pattern: string): string[] {
  const words = new Set<string>();
  for (const [run] of pattern.matchAll(WORD)) if (!run.startsWith("$") && /[A-Za-z_]/.test(run)) words.add(run);
  return [...words];
}

/** The words of a rule (an ast-grep rule object); undefined when the rule may match without any. */
export function ruleWords(rule: unknown): RuleWords | undefined {
  if (typeof rule !== "object" || rule === null || Array.isArray(rule)) return undefined;
  const r = rule as Record<string, unknown>;
  // The keys of a rule object all hold (ast-grep: a rule object is their conjunction), so any one
  // key's words are necessary; a pattern's, else an `any`'s, else the first of an `all` that has some.
  if (typeof r.pattern === "string") {
    const words = patternWords(r.pattern);
    if (words.length) return [words];
  }
  if (Array.isArray(r.any) && r.any.length) {
    const alternatives: (readonly string[])[] = [];
    for (const branch of r.any) {
      const words = ruleWords(branch);
      if (!words) return undefined;
      alternatives.push(...words);
    }
    return alternatives;
  }
  if (Array.isArray(r.all))
    for (const part of r.all) {
      const words = ruleWords(part);
      if (words) return words;
    }
  return undefined;
}

/** Whether a file may hold a match of a rule with these words; `has` tells whether the file contains a word. */
export const mayMatch = (words: RuleWords | undefined, has: (word: string) => boolean): boolean =>
  !words || words.some((all) => all.every(has));

/** A rule's `any` branches with their words: the branches a file cannot match in are left out of the rule given for it. */
export interface RuleBranches {
  rule: Record<string, unknown>;
  branches: { rule: unknown; words: RuleWords | undefined }[];
}

/** The rule's top-level `any` branches and their words; undefined when the rule has no such list. */
export function ruleBranches(rule: Record<string, unknown>): RuleBranches | undefined {
  if (!Array.isArray(rule.any) || rule.any.length < 2) return undefined;
  return { rule, branches: rule.any.map((branch: unknown) => ({ rule: branch, words: ruleWords(branch) })) };
}

/**
 * The rule for one file: its `any` without the branches that cannot match in the file (their
 * words are not all in it). Exact: a branch that matches nothing in the file adds nothing to the
 * `any`; fewer branches are fewer patterns compiled and tried on each node.
 */
export function ruleForFile(branches: RuleBranches, has: (word: string) => boolean): Record<string, unknown> {
  const kept = branches.branches.filter((b) => mayMatch(b.words, has)).map((b) => b.rule);
  return kept.length && kept.length < branches.branches.length ? { ...branches.rule, any: kept } : branches.rule;
}
