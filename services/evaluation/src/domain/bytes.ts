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

const isHighSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isLowSurrogate = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

/**
 * The UTF-8 byte offset of each UTF-16 index into a string (what `Buffer.byteLength(text.slice(0,
 * index))` gives, for every index), in one walk over the string however many indices there are:
 * the indices sorted, each stretch between two of them encoded once. An index between the halves
 * of a surrogate pair ends its prefix in a lone high surrogate, which UTF-8 writes as U+FFFD (3 bytes).
 */
export function utf8Offsets(text: string, indices: Iterable<number>): Map<number, number> {
  const offsets = new Map<number, number>();
  let at = 0;
  let bytes = 0;
  for (const index of [...new Set(indices)].sort((a, b) => a - b)) {
    const split = index > 0 && isHighSurrogate(text.charCodeAt(index - 1)) && isLowSurrogate(text.charCodeAt(index));
    const to = split ? index - 1 : index;
    bytes += Buffer.byteLength(text.slice(at, to), "utf8");
    at = to;
    offsets.set(index, split ? bytes + 3 : bytes);
  }
  return offsets;
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

/** Each byte with ASCII upper-case letters lower-cased. */
const ASCII_LOWER = Uint8Array.from({ length: 256 }, (_, b) => (b >= 0x41 && b <= 0x5a ? b | 0x20 : b));
let lowered = Buffer.alloc(64 * 1024);

/** Bytes that String#toLowerCase lower-cases in latin1 besides A-Z (À-Þ): the table handles those. */
const LATIN1_UPPER = /[\xC0-\xDE]/;
/** How many bytes this thread lowers through a string before the table takes over (see toLowerAscii). */
const STRING_ROUTE_BYTES = 8 * 1024 * 1024;
let stringRouteBytes = 0;

/**
 * The content with ASCII letters lower-cased, for keyword checks (keywords are lower-case ASCII,
 * so only ASCII letters matter), in one buffer this thread reuses for every file: valid until the
 * next call. Once compiled, a table lookup per byte costs about half of decoding the file as
 * latin1, lower-casing the string and encoding it again, and allocates nothing per file; but until
 * V8 has compiled the loop it runs in the interpreter, 20-30 ms for the first 40 KB, which is most
 * of what a one-shot `verdict evaluate --offline` lowers. So the first STRING_ROUTE_BYTES of a
 * thread go through the string (native code from the first byte), the rest through the table.
 * Both give the same bytes: a text with a byte the string route would change too (À-Þ as latin1)
 * takes the table.
 */
export function toLowerAscii(buf: Buffer): Buffer {
  if (lowered.length < buf.length) lowered = Buffer.alloc(Math.max(buf.length, lowered.length * 2));
  const out = lowered;
  if (stringRouteBytes < STRING_ROUTE_BYTES) {
    const text = buf.toString("latin1");
    if (!LATIN1_UPPER.test(text)) {
      stringRouteBytes += buf.length;
      out.write(text.toLowerCase(), 0, "latin1");
      return out.subarray(0, buf.length);
    }
  }
  for (let i = 0; i < buf.length; i++) out[i] = ASCII_LOWER[buf[i]!]!;
  return out.subarray(0, buf.length);
}
