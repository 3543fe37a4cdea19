// The regex rules that can match in a known, small set of texts: an engine compiled for them
// (compileEngine's `texts`) leaves the others out of its set. A rule reports nothing in a file that
// holds none of its keywords (lower-cased, as the engine's keyword check and the set's keyword
// entries read them) or whose path none of its `paths` match, so leaving it out changes nothing
// in those texts; and the set of the few rules left is compiled, and its DFA built, in a fraction
// of the time the library's 700-odd patterns take (a typical commit wakes about a dozen).
import { RE2 } from "./re2.js";
import { toLowerAscii } from "./bytes.js";

/** The parts of a rule the gate reads. */
export interface GatedPattern {
  keywords: string[];
  paths: string[];
}

/** Bits of the 3-byte sequences of the texts: a keyword with a trigram they lack is in none of them. */
const TRIGRAMS = 1 << 24;

/**
 * Whether a regex rule may match in one of `texts` (path and content): every keyword it has, one
 * of them is in a text, and every path condition it has, one of them matches a text's path. Exact
 * in one direction only: a rule it admits may still find nothing; one it refuses finds nothing.
 */
export function textGate(texts: readonly { path: string; content: Buffer }[]): (pattern: GatedPattern) => boolean {
  // The texts lower-cased into one buffer (toLowerAscii reuses its own), each followed by a NUL
  // that no keyword holds, and the bits of its trigrams.
  const joined = Buffer.allocUnsafe(texts.reduce((n, t) => n + t.content.length + 1, 0));
  let end = 0;
  for (const t of texts) {
    end += toLowerAscii(t.content).copy(joined, end);
    joined[end++] = 0;
  }
  const trigrams = new Uint8Array(TRIGRAMS / 8);
  for (let i = 0; i + 2 < joined.length; i++) {
    const g = (joined[i]! << 16) | (joined[i + 1]! << 8) | joined[i + 2]!;
    trigrams[g >>> 3]! |= 1 << (g & 7);
  }
  /** Whether every trigram of the keyword's bytes (`at(i)`, `length` of them) is one of the texts'. */
  const hasTrigrams = (at: (i: number) => number, length: number) => {
    for (let i = 0; i + 2 < length; i++) {
      const g = (at(i) << 16) | (at(i + 1) << 8) | at(i + 2);
      if (!(trigrams[g >>> 3]! & (1 << (g & 7)))) return false;
    }
    return true;
  };
  const keywordSeen = new Map<string, boolean>();
  const present = (keyword: string) => {
    let seen = keywordSeen.get(keyword);
    if (seen === undefined) {
      const lower = keyword.toLowerCase();
      // An ASCII keyword's characters are its bytes: no buffer for the keywords of most rules.
      const bytes = Buffer.byteLength(lower, "utf8") === lower.length ? undefined : Buffer.from(lower, "utf8");
      seen = bytes
        ? hasTrigrams((i) => bytes[i]!, bytes.length) && joined.includes(bytes)
        : hasTrigrams((i) => lower.charCodeAt(i), lower.length) && joined.includes(lower, 0, "latin1");
      keywordSeen.set(keyword, seen);
    }
    return seen;
  };
  const pathSeen = new Map<string, boolean>();
  const matchesAPath = (pattern: string) => {
    let seen = pathSeen.get(pattern);
    if (seen === undefined) {
      const re = new RE2(pattern, "u");
      seen = texts.some((t) => re.test(t.path));
      pathSeen.set(pattern, seen);
    }
    return seen;
  };
  return (pattern) =>
    (!pattern.keywords.length || pattern.keywords.some(present)) &&
    (!pattern.paths.length || pattern.paths.some(matchesAPath));
}
