// The first pass: every regex rule of a library in one RE2.Set that reads each file once and
// says which rules may match in it.
import { RE2 } from "./re2.js";

/** What the set needs of a rule. */
export interface SetRule {
  re: RE2;
  pattern: { value: string; keywords: string[] };
  /** What the set looks for on this rule's behalf (setEntries()). */
  entry: SetEntry;
}

// m: ^ and $ at line boundaries (whole files are scanned); u: Unicode classes.
const SET_FLAGS = "mu";
// RE2.Set builds one DFA for all patterns; the default 8 MiB budget is too small for a library
// of this size.
const SET_MAX_MEM = 256 * 1024 * 1024;

/**
 * What the set looks for on a rule's behalf: its pattern; its keywords (a rule with large counted
 * repeats, whose pattern would swell the set's DFA); or its pattern with those repeats opened
 * (cappedRepeats(): a rule whose every match starts with a literal, which keeps the DFA small).
 */
export type SetEntry = "pattern" | "keywords" | "capped";

/**
 * The rules the first pass found candidates, and whether the set found them: then a rule entered
 * by its keywords (setEntries()) is known to have one of them in the file, and `keywords` holds
 * every keyword (lower case) of those rules the file has, and no other.
 */
export type Candidates = (content: Buffer) => { rules: number[]; bySet: boolean; keywords?: ReadonlySet<string> };

// A pattern with a counted repeat larger than this (`[\w.-]{0,50}`, `{7,127}`) multiplies the
// set's DFA states with every other such pattern active at the same place: a few hundred of them
// together made the one pass ten times slower on real code, each new byte a new DFA state.
export const SET_MAX_REPEAT = 16;
const COUNTED_REPEAT = /\{(\d+)(?:,(\d*))?\}/g;

/** The largest bound of a counted repeat in the pattern (an open one counts as unbounded). */
export function largestRepeat(pattern: string): number {
  let largest = 0;
  for (const m of pattern.matchAll(COUNTED_REPEAT))
    largest = Math.max(largest, m[2] === "" ? Number.POSITIVE_INFINITY : Number(m[2] ?? m[1]));
  return largest;
}

/**
 * The pattern with each counted repeat above SET_MAX_REPEAT opened: `{a,b}` becomes
 * `{min(a, SET_MAX_REPEAT),}`. It matches wherever the pattern does (each repeat allows at least
 * as much), and its DFA counts no further than SET_MAX_REPEAT.
 */
export function cappedRepeats(pattern: string): string {
  return pattern.replace(COUNTED_REPEAT, (repeat: string, low: string, high: string | undefined, at: number) => {
    let escapes = 0;
    while (pattern[at - 1 - escapes] === "\\") escapes++;
    const largest = high === undefined ? Number(low) : high === "" ? Number.POSITIVE_INFINITY : Number(high);
    // `\{20}` is a literal brace, not a repeat.
    if (escapes % 2 === 1 || largest <= SET_MAX_REPEAT) return repeat;
    return `{${Math.min(Number(low), SET_MAX_REPEAT)},}`;
  });
}

const escapeLiteral = (word: string) => word.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&");

/**
 * A keyword as the keyword check reads it: ASCII letters in either case, every other character as
 * it is (`[aA][pP][iI]_`). Not `(?i:…)`, whose Unicode case folding also takes the Kelvin sign for
 * a `k`: with exactly the check's matching, the set's answer is the check's.
 */
const caselessAscii = (keyword: string) =>
  [...keyword.toLowerCase()]
    .map((c) => (c >= "a" && c <= "z" ? `[${c}${c.toUpperCase()}]` : escapeLiteral(c)))
    .join("");

/**
 * What the set looks for on the rules' behalf: a rule's pattern, or, for a rule with keywords and
 * large counted repeats, each of its keywords (literals, which keep the set's DFA small), an entry
 * per keyword shared by every rule that has it. Such a rule then only runs where a keyword occurs,
 * as it must anyway, and its own pass finds whether it matches; the set having found a keyword,
 * the rule's keyword check is not made again, and its second pass looks for the keywords found.
 */
interface Entry {
  source: string;
  rules: number[];
  /** The keyword, lower case, for a keyword's entry. */
  keyword?: string;
}

function setEntries(rules: SetRule[]): Entry[] {
  const entries: Entry[] = [];
  const byKeyword = new Map<string, Entry>();
  rules.forEach((rule, i) => {
    if (rule.entry === "pattern") return void entries.push({ source: rule.pattern.value, rules: [i] });
    if (rule.entry === "capped") return void entries.push({ source: cappedRepeats(rule.pattern.value), rules: [i] });
    for (const keyword of new Set(rule.pattern.keywords.map((k) => k.toLowerCase()))) {
      let entry = byKeyword.get(keyword);
      if (!entry) {
        entry = { source: caselessAscii(keyword), rules: [], keyword };
        byKeyword.set(keyword, entry);
        entries.push(entry);
      }
      entry.rules.push(i);
    }
  });
  return entries;
}

/** How compileSet() builds the first pass. */
export interface SetOptions {
  /**
   * Two sets instead of one: the keywords' entries (literals) and the patterns, with the same
   * answer. RE2 builds a set's DFA as it reads, and the two DFAs take far fewer states to build
   * than the one of them all: on express's history (5.2 MB of text, the whole library) 196
   * against 329 ms of CPU on the first read, but 47 against 23 ms on a read once they are built.
   * For a process that scans once (the CLI's offline engines).
   */
  split?: boolean;
}

export function compileSet(rules: SetRule[], options: SetOptions = {}): Candidates {
  const entries = setEntries(rules);
  // Without the set (too large for its DFA budget, at compile time or on some input), the same
  // rules come from each pattern alone: slower, never wrong.
  const oneByOne: Candidates = (content) => ({
    rules: rules.flatMap((r, i) => {
      r.re.lastIndex = 0;
      return r.re.test(content) ? [i] : [];
    }),
    bySet: false,
  });
  const groups = options.split
    ? [entries.filter((e) => e.keyword !== undefined), entries.filter((e) => e.keyword === undefined)]
    : [entries];
  let sets: { entries: Entry[]; set: InstanceType<typeof RE2.Set> }[];
  try {
    sets = groups
      .filter((g) => g.length > 0)
      .map((g) => ({
        entries: g,
        set: new RE2.Set(
          g.map((e) => e.source),
          SET_FLAGS,
          { maxMem: SET_MAX_MEM },
        ),
      }));
  } catch {
    return oneByOne;
  }
  return (content) => {
    const found = new Uint8Array(rules.length);
    const keywords = new Set<string>();
    try {
      for (const { entries: group, set } of sets) {
        for (const e of set.match(content)) {
          const entry = group[e]!;
          if (entry.keyword !== undefined) keywords.add(entry.keyword);
          for (const r of entry.rules) found[r] = 1;
        }
      }
    } catch {
      return oneByOne(content);
    }
    // In ascending order: the order the rules are checked and reported in.
    const candidates: number[] = [];
    for (let r = 0; r < found.length; r++) if (found[r]) candidates.push(r);
    return { rules: candidates, bySet: true, keywords };
  };
}
