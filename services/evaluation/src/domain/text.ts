// Code points in JavaScript strings (UTF-16, where an emoji takes two units), for snippets.
// Positions in files are counted on UTF-8 bytes: see bytes.ts.

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
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
  return offset > 0 &&
    offset < text.length &&
    isLowSurrogate(text.charCodeAt(offset)) &&
    isHighSurrogate(text.charCodeAt(offset - 1))
    ? offset - 1
    : offset;
}
