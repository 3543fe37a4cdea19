// The base62 CRC-32 checksum that GitHub's and npm's token formats carry (and so do Verdict's own
// API keys): the CRC-32 (IEEE) of the token's random part, written as 6 base62 digits
// (alphabet 0-9A-Za-z, most significant first, zero-padded). It lets a reader tell a real token
// from a typo or a made-up look-alike without asking anyone.
import { randomBytes } from "node:crypto";
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

/** `<prefix><32 random base62><6 base62 checksum>`: the shape of every Verdict secret token. */
export function mintChecksummedToken(prefix: string): string {
  const bytes = randomBytes(64);
  let random = "";
  // 62 * 4 = 248: bytes of 248 and above are skipped so every character is equally likely.
  for (const b of bytes) {
    if (b < 248) random += BASE62_ALPHABET[b % 62];
    if (random.length === 32) break;
  }
  if (random.length < 32) return mintChecksummedToken(prefix);
  return `${prefix}${random}${crc32Base62(random)}`;
}

/** Shape and checksum of a presented token, without touching storage. */
export function checksummedTokenValid(prefix: string, value: string): boolean {
  if (!value.startsWith(prefix)) return false;
  const rest = value.slice(prefix.length);
  if (!/^[0-9A-Za-z]{38}$/.test(rest)) return false;
  return crc32Base62(rest.slice(0, 32)) === rest.slice(32);
}
