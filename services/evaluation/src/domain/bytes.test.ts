import { describe, expect, it } from "@jest/globals";
import { toLowerAscii, utf8Offsets } from "./bytes.js";

/** Whether `lowered` is `buf` with A-Z lower-cased and every other byte as it is. */
function lowersAscii(buf: Buffer, lowered: Buffer): boolean {
  const want = Buffer.alloc(buf.length);
  for (let i = 0; i < buf.length; i++) want[i] = buf[i]! >= 0x41 && buf[i]! <= 0x5a ? buf[i]! | 0x20 : buf[i]!;
  return want.equals(lowered);
}

describe("toLowerAscii", () => {
  const everyByte = Buffer.from(Array.from({ length: 256 }, (_, b) => b));
  const ascii = Buffer.from("const AccessKey = 'AKIA'; // MIXED Case, Z and z\n");
  const utf8 = Buffer.from("Schlüssel = 'ÀÉÎ Secret' // 鍵 KEY", "utf8");

  it("lower-cases ASCII letters only, whichever way it goes (string first, table after 8 MiB or for À-Þ)", () => {
    // The first texts of a thread: ASCII (string route), every byte and UTF-8 with À-Þ bytes (table).
    for (const buf of [ascii, everyByte, utf8, ascii]) expect(lowersAscii(buf, toLowerAscii(buf))).toBe(true);
    // Past the string route's budget, the table for everything.
    const large = Buffer.alloc(9 * 1024 * 1024, "Ab");
    expect(lowersAscii(large, toLowerAscii(large))).toBe(true);
    for (const buf of [ascii, everyByte, utf8]) expect(lowersAscii(buf, toLowerAscii(buf))).toBe(true);
  });

  it("answers in one buffer reused from call to call, exactly as long as the text", () => {
    const first = toLowerAscii(Buffer.from("ABC"));
    expect(first.toString()).toBe("abc");
    const second = toLowerAscii(Buffer.from("XY"));
    expect(second.toString()).toBe("xy");
    expect(second.buffer).toBe(first.buffer);
  });
});

describe("utf8Offsets", () => {
  // ASCII, 2-byte (é), 3-byte (中文, U+FFFD), 4-byte astral (😀, a surrogate pair), a combining
  // mark (e + U+0301), a lone surrogate of each kind (from invalid UTF-8) and a CRLF.
  const text = "ab é 中文\r\n😀e\u0301 \ud83d x \udc00 🎉\uFFFD end";

  it("gives every index the byte offset of the prefix before it, in any order and repeated", () => {
    const indices = Array.from({ length: text.length + 1 }, (_, i) => i);
    const shuffled = [...indices.filter((i) => i % 2), ...indices.filter((i) => !(i % 2)).reverse(), 3, 3];
    const offsets = utf8Offsets(text, shuffled);
    expect(offsets.size).toBe(indices.length);
    for (const i of indices) expect([i, offsets.get(i)]).toEqual([i, Buffer.byteLength(text.slice(0, i), "utf8")]);
  });

  it("counts an index between a surrogate pair's halves as the prefix's lone high surrogate (3 bytes)", () => {
    const emoji = text.indexOf("😀");
    const offsets = utf8Offsets(text, [emoji, emoji + 1, emoji + 2]);
    expect([offsets.get(emoji + 1)! - offsets.get(emoji)!, offsets.get(emoji + 2)! - offsets.get(emoji)!]).toEqual([
      3, 4,
    ]);
    expect(utf8Offsets("", [0]).get(0)).toBe(0);
  });
});
