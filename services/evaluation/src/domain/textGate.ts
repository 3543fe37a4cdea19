// The regex rules that can match in a known, small set of texts: an engine compiled for them
// (compileEngine's `texts`) leaves the others out of its set. A rule reports nothing in a file that
// holds none of its keywords (lower-cased, as the engine's keyword check and the set's keyword
// entries read them) or whose path none of its `paths` match, so leaving it out changes nothing
// in those texts; and the set of the few rules left is compiled, and its DFA built, in a fraction
// of the time the library's 700-odd patterns take (a typical commit wakes about a dozen).
import RE2 from "re2";
import { toLowerAscii } from "./bytes.js";

/** The parts of a rule the gate reads. */
export interface GatedPattern {
  keywords: string[];
  paths: string[];
}

/** Bits of the 3-byte sequences of the texts: a keyword missing one of its own is in none of them. */
const TRIGRAMS = 1 << 24;

/**
 * Whether a regex rule may match in one of `texts` (path and content): every keyword it has, one
 * of them is in a text, and every path condition it has, one of them matches a text's path. Exact
 * in one direction only: a rule it admits may still find nothing; one it refuses finds nothing.
 */
export function textGate(texts: readonly { path: string; content: Buffer }[]): (pattern: GatedPattern) => boolean {
  // The texts lower-cased (toLowerAscii reuses its buffer: each is copied out), and their trigrams.
  const lowered = texts.map((t) => Buffer.from(toLowerAscii(t.content)));
  const trigrams = new Uint8Array(TRIGRAMS / 8);
  for (const text of lowered)
    for (let i = 0; i + 2 < text.length; i++) {
      const g = (text[i]! << 16) | (text[i + 1]! << 8) | text[i + 2]!;
      trigrams[g >>> 3]! |= 1 << (g & 7);
    }
  const hasTrigrams = (k: Buffer) => {
    for (let i = 0; i + 2 < k.length; i++) {
      const g = (k[i]! << 16) | (k[i + 1]! << 8) | k[i + 2]!;
      if (!(trigrams[g >>> 3]! & (1 << (g & 7)))) return false;
    }
    return true;
  };
  const keywordSeen = new Map<string, boolean>();
  const present = (keyword: string) => {
    let seen = keywordSeen.get(keyword);
    if (seen === undefined) {
      const k = Buffer.from(keyword.toLowerCase(), "utf8");
      seen = hasTrigrams(k) && lowered.some((text) => text.includes(k));
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
