import { describe, expect, it } from "@jest/globals";
import { toLowerAscii } from "./bytes.js";

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
