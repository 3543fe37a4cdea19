// The base62 CRC-32 checksum that GitHub's and npm's token formats carry (and so do Verdict's own
// API keys): the CRC-32 (IEEE) of the token's random part, written as 6 base62 digits
// (alphabet 0-9A-Za-z, most significant first, zero-padded). It lets a reader tell a real token
// from a typo or a made-up look-alike without asking anyone.
import { crc32 } from "node:zlib";

export const BASE62_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** `n` in base62, exactly `width` digits (zero-padded, higher digits dropped). */
export function base62(n: number, width: number): string {
  let out = "";
  let v = n;
  for (let i = 0; i < width; i++) {
    out = BASE62_ALPHABET[v % 62] + out;
    v = Math.floor(v / 62);
  }
  return out;
}

/** The 6-digit base62 CRC-32 of an ASCII string. */
export function crc32Base62(random: string): string {
  return base62(crc32(Buffer.from(random, "ascii")) >>> 0, 6);
}
