// Positions in UTF-8 bytes. The engine scans Buffers (RE2 works on UTF-8 natively, so no
// UTF-16 conversion of whole files); people read lines and columns in code points.

/** True for bytes that start a code point (everything but 10xxxxxx continuation bytes). */
function isLead(byte: number): boolean {
  return (byte & 0xc0) !== 0x80;
}

/** Code points in buf[from, to). */
export function codePointsBetween(buf: Buffer, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (isLead(buf[i]!)) n++;
  return n;
}

/** Moves a byte offset back to the start of the code point it falls in. */
export function alignBack(buf: Buffer, offset: number): number {
  let i = Math.max(0, Math.min(offset, buf.length));
  while (i > 0 && i < buf.length && !isLead(buf[i]!)) i--;
  return i;
}

export interface ByteLine {
  /** 1-based. */
  line: number;
  /** Byte offsets of the line's text, without its terminator. */
  start: number;
  end: number;
}

/** Line starts of a Buffer, for turning byte offsets into line numbers by binary search. */
export class ByteLines {
  private readonly starts: number[] = [0];

  constructor(private readonly buf: Buffer) {
    for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) this.starts.push(i + 1);
  }

  get count(): number {
    return this.starts.length;
  }

  at(offset: number): ByteLine {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return this.line(lo + 1);
  }

  /** Line by its 1-based number. */
  line(n: number): ByteLine {
    const start = this.starts[n - 1]!;
    const next = this.starts[n] ?? this.buf.length + 1;
    let end = Math.min(next - 1, this.buf.length);
    if (end > start && this.buf[end - 1] === 13) end--;
    return { line: n, start, end };
  }
}
