// An independent implementation of DESIGN.md's key format, so the tests can choose bootstrap
// keys and check that the service agrees with the documented algorithm.
import { randomInt } from "node:crypto";
import { crc32 } from "node:zlib";

const B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export function checksum6(random: string): string {
  let n = crc32(random) >>> 0;
  let out = "";
  for (let i = 0; i < 6; i++) {
    out = B62[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

export function makeKey(env: "prod" | "test" = "prod"): string {
  let random = "";
  for (let i = 0; i < 32; i++) random += B62[randomInt(62)];
  return `vdt_key_${env}_${random}${checksum6(random)}`;
}
