// Positions in text as people count them. JavaScript strings index UTF-16 code units, where an
// emoji or other astral character takes two; columns shown to users count Unicode code points.

export function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

export function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Code points in text[from, to): code units minus the second half of each surrogate pair. */
export function countCodePoints(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    if (!(isLowSurrogate(text.charCodeAt(i)) && i > from && isHighSurrogate(text.charCodeAt(i - 1)))) n++;
  }
  return n;
}

/** Moves an offset off the middle of a surrogate pair (towards the start), so slices stay valid. */
export function alignToCodePoint(text: string, offset: number): number {
  return offset > 0 && offset < text.length && isLowSurrogate(text.charCodeAt(offset)) && isHighSurrogate(text.charCodeAt(offset - 1)) ? offset - 1 : offset;
}

export interface LineSpan {
  /** 1-based line number. */
  line: number;
  /** Offsets of the line's text in the content, without its line terminator. */
  start: number;
  end: number;
  /** Offset where the next line starts (past the end of the text on the last line). */
  next: number;
}

/** Line starts of a text, for turning match offsets into line numbers by binary search. */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(private readonly text: string) {
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) this.starts.push(i + 1);
  }

  /** The line holding offset; `\r\n` endings are not part of the line. */
  lineAt(offset: number): LineSpan {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    const start = this.starts[lo]!;
    const next = this.starts[lo + 1] ?? this.text.length + 1;
    let end = next - 1;
    if (end > start && this.text.charCodeAt(end - 1) === 13) end--;
    return { line: lo + 1, start, end, next };
  }
}
