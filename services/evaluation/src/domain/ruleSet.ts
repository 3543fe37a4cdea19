// The first pass: every regex rule of a library in one RE2.Set that reads each file once and
// says which rules may match in it.
import RE2 from "re2";

/** What the set needs of a rule. */
export interface SetRule {
  re: RE2;
  pattern: { value: string; keywords: string[] };
  /** Whether the set looks for this rule's keywords rather than its pattern (setEntry()). */
  keywordEntry: boolean;
}

// m: ^ and $ at line boundaries (whole files are scanned); u: Unicode classes.
const SET_FLAGS = "mu";
// RE2.Set builds one DFA for all patterns; the default 8 MiB budget is too small for a library
// of this size.
const SET_MAX_MEM = 256 * 1024 * 1024;

/**
 * The rules the first pass found candidates, and whether the set found them: then a rule entered
 * by its keywords (setEntry()) is known to have one of them in the file.
 */
export type Candidates = (content: Buffer) => { rules: number[]; bySet: boolean };

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
 * What the set looks for on a rule's behalf: the pattern itself, or, for a rule with keywords and
 * large counted repeats, its keywords (literals, which keep the set's DFA small). Such a rule then
 * only runs where a keyword occurs, as it must anyway, and its own pass finds whether it matches;
 * the set having found a keyword, the rule's keyword check is not made again.
 */
function setEntry(rule: SetRule): string {
  return rule.keywordEntry ? rule.pattern.keywords.map(caselessAscii).join("|") : rule.pattern.value;
}

/** How compileSet() builds the first pass. */
export interface SetOptions {
  /**
   * Two sets instead of one: the rules entered by their keywords (literal alternations) and the
   * others (whole patterns), with the same answer. RE2 builds a set's DFA as it reads, and the
   * two DFAs take far fewer states to build than the one of them all: on express's history (5.2 MB
   * of text, the whole library) 196 against 329 ms of CPU on the first read, but 47 against 23 ms
   * on a read once they are built. For a process that scans once (the CLI's offline engines).
   */
  split?: boolean;
}

export function compileSet(rules: SetRule[], options: SetOptions = {}): Candidates {
  if (options.split) {
    const groups = [
      rules.flatMap((r, i) => (r.keywordEntry ? [i] : [])),
      rules.flatMap((r, i) => (r.keywordEntry ? [] : [i])),
    ];
    if (groups.every((g) => g.length > 0)) {
      const sets = groups.map((indexes) => ({ indexes, match: compileSet(indexes.map((i) => rules[i]!)) }));
      return (content) => {
        const found: number[] = [];
        let bySet = true;
        for (const { indexes, match } of sets) {
          const part = match(content);
          bySet &&= part.bySet; // a keyword check made again where a set could not say
          for (const i of part.rules) found.push(indexes[i]!);
        }
        // In ascending order, as one set answers (the order the rules are checked and reported in).
        return { rules: found.sort((x, y) => x - y), bySet };
      };
    }
  }
  // Without the set (too large for its DFA budget, at compile time or on some input), the same
  // answer comes from each pattern alone: slower, never wrong.
  const oneByOne: Candidates = (content) => ({
    rules: rules.flatMap((r, i) => {
      r.re.lastIndex = 0;
      return r.re.test(content) ? [i] : [];
    }),
    bySet: false,
  });
  let set: InstanceType<typeof RE2.Set>;
  try {
    set = new RE2.Set(rules.map(setEntry), SET_FLAGS, { maxMem: SET_MAX_MEM });
  } catch {
    return oneByOne;
  }
  return (content) => {
    try {
      return { rules: set.match(content), bySet: true };
    } catch {
      return oneByOne(content);
    }
  };
}
