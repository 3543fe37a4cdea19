// The code snippet of a violation: the matched line, trimmed, at most MAX_SNIPPET code points
// around the match, with every secret on it masked.
import { applyMasks, occurrences, type Range } from "./redaction.js";
import { alignToCodePoint, countCodePoints } from "./text.js";

export const MAX_SNIPPET = 200;
// Work on this many code units either side of the match: bounded work per finding even when a
// minified file is one 1 MiB line.
const WINDOW = 400;
const ELLIPSIS = "…";

const clip = (r: Range, lo: number, hi: number): Range => ({
  start: Math.max(lo, Math.min(hi, r.start)),
  end: Math.max(lo, Math.min(hi, r.end)),
});
const shift = (r: Range, by: number): Range => ({ start: r.start + by, end: r.end + by });

/**
 * @param line the line's text without its terminator
 * @param match the match, line-relative (its end may lie past the line for multi-line matches)
 * @param secrets secret ranges on this line, line-relative (from every redacting pattern)
 * @param secretValues secrets found anywhere in the file: masked wherever they appear again
 */
export function buildSnippet(line: string, match: Range, secrets: Range[], secretValues: Iterable<string>): string {
  // Trim without copying the line (it may be a whole minified file): find where its text starts
  // and ends, so the budget is spent on code rather than indentation.
  let first = 0;
  let last = line.length;
  while (first < last && isWhitespace(line.charCodeAt(first))) first++;
  while (last > first && isWhitespace(line.charCodeAt(last - 1))) last--;
  const m = clip(match, first, last);

  const lo = alignToCodePoint(line, Math.max(first, m.start - WINDOW));
  const hi = alignToCodePoint(line, Math.min(last, Math.min(m.end, m.start + WINDOW) + WINDOW));
  const text = line.slice(lo, hi);
  const masked = applyMasks(text, [
    ...secrets.map((r) => clip(shift(r, -lo), 0, text.length)),
    ...occurrences(text, secretValues),
  ]);

  const chars = Array.from(masked.text);
  const matchStart = countCodePoints(masked.text, 0, masked.map(m.start - lo));
  const matchEnd = countCodePoints(masked.text, 0, masked.map(Math.min(m.end, hi) - lo));
  // Centre the match in the budget; a match longer than the budget shows from its start.
  const before = Math.floor(Math.max(0, MAX_SNIPPET - (matchEnd - matchStart)) / 2);
  const from = Math.max(0, Math.min(matchStart - before, chars.length - MAX_SNIPPET));
  const to = Math.min(chars.length, from + MAX_SNIPPET);
  const shown = chars.slice(from, to);
  // Mark cuts inside the budget, so the snippet never exceeds MAX_SNIPPET code points.
  if (from > 0 || lo > first) shown[0] = ELLIPSIS;
  if (to < chars.length || hi < last) shown[shown.length - 1] = ELLIPSIS;
  return shown.join("");
}

/** The characters String.prototype.trim removes that occur in source code. */
function isWhitespace(code: number): boolean {
  return (
    code === 0x20 ||
    (code >= 0x09 && code <= 0x0d) ||
    code === 0xa0 ||
    code === 0xfeff ||
    code === 0x2028 ||
    code === 0x2029
  );
}
