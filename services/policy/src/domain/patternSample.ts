// Runs a checked custom pattern on sample text the way the engine runs a rule: RE2 with the
// rule flags (gmdu) over the UTF-8 bytes, every match in reading order. Positions are 1-based
// lines and columns counted in code points, as violations report them.
import RE2 from "re2";
import { RULE_FLAGS } from "./patternBudget.js";

export interface SampleMatch {
  line: number;
  column: number;
  end_line: number;
  end_column: number;
  text: string;
}

export interface SampleMatches {
  matches: SampleMatch[];
  /** More matches than maxMatches were found. */
  truncated: boolean;
}

/** Line and column (1-based, code points) of every byte offset asked for, in one pass. */
function positions(buf: Buffer, offsets: number[]): Map<number, { line: number; column: number }> {
  const wanted = [...new Set(offsets)].sort((a, b) => a - b);
  const out = new Map<number, { line: number; column: number }>();
  let line = 1;
  let column = 1;
  let w = 0;
  for (let i = 0; i <= buf.length && w < wanted.length; i++) {
    while (w < wanted.length && wanted[w] === i) out.set(wanted[w++]!, { line, column });
    if (i === buf.length) break;
    const byte = buf[i]!;
    if (byte === 10) {
      line++;
      column = 1;
    } else if ((byte & 0xc0) !== 0x80) {
      // Counted at its lead byte: match boundaries never fall inside a code point.
      column++;
    }
  }
  return out;
}

export function matchSample(value: string, text: string, maxMatches: number): SampleMatches {
  const re = new RE2(value, RULE_FLAGS);
  const buf = Buffer.from(text, "utf8");
  const found: { start: number; end: number; text: string }[] = [];
  let truncated = false;
  re.lastIndex = 0;
  for (let m = re.exec(buf); m; m = re.exec(buf)) {
    if (found.length === maxMatches) {
      truncated = true;
      break;
    }
    const start = m.index;
    const end = start + m[0]!.length;
    found.push({ start, end, text: m[0]!.toString("utf8") });
    // A pattern that matches the empty string is refused before this runs; guard anyway.
    if (end === start) re.lastIndex = end + 1;
  }
  const at = positions(
    buf,
    found.flatMap((f) => [f.start, f.end]),
  );
  return {
    truncated,
    matches: found.map((f) => {
      const s = at.get(f.start)!;
      const e = at.get(f.end)!;
      return { line: s.line, column: s.column, end_line: e.line, end_column: e.column, text: f.text };
    }),
  };
}
