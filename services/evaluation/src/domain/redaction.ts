// Masking secrets. A violation must never carry a full secret: it is stored, listed, exported
// in compliance evidence and sent to webhooks, all places a secret must not spread to.

export interface Range {
  /** UTF-16 offsets; end exclusive. */
  start: number;
  end: number;
}

export const MASK = "****";

/**
 * Keeps a short prefix so people can tell which credential it was (`AKIA****`), but never more
 * than a quarter of the secret (at most 4 code points): short passwords keep 1 or 2 characters.
 */
export function maskSecret(secret: string): string {
  const chars = Array.from(secret);
  const keep = Math.min(4, Math.floor(chars.length / 4));
  return chars.slice(0, keep).join("") + MASK;
}

/** Sorted, non-overlapping ranges: overlapping or touching ranges become one. */
export function mergeRanges(ranges: Range[]): Range[] {
  const sorted = ranges.filter((r) => r.end > r.start).sort((a, b) => a.start - b.start);
  const out: Range[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r.start <= last.end) last.end = Math.max(last.end, r.end);
    else out.push({ ...r });
  }
  return out;
}

/** Every occurrence of each secret value in text, so a secret repeated elsewhere is masked too. */
export function occurrences(text: string, values: Iterable<string>): Range[] {
  const out: Range[] = [];
  for (const value of values) {
    for (let i = text.indexOf(value); i !== -1; i = text.indexOf(value, i + value.length))
      out.push({ start: i, end: i + value.length });
  }
  return out;
}

export interface Masked {
  text: string;
  /** Maps an offset of the original text to the masked text (inside a mask: the mask's start). */
  map(offset: number): number;
}

/** Replaces each range of text by its mask. */
export function applyMasks(text: string, ranges: Range[]): Masked {
  const merged = mergeRanges(ranges);
  const shifts: { start: number; end: number; maskedStart: number; maskedEnd: number }[] = [];
  let out = "";
  let pos = 0;
  for (const r of merged) {
    out += text.slice(pos, r.start);
    const maskedStart = out.length;
    out += maskSecret(text.slice(r.start, r.end));
    shifts.push({ start: r.start, end: r.end, maskedStart, maskedEnd: out.length });
    pos = r.end;
  }
  out += text.slice(pos);
  return {
    text: out,
    map(offset) {
      let delta = 0;
      for (const s of shifts) {
        if (offset < s.start) break;
        if (offset < s.end) return s.maskedStart;
        delta = s.maskedEnd - s.end;
      }
      return offset + delta;
    },
  };
}
