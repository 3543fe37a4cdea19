// Random tokens handed to people (invitations, sessions, sign-in challenges, recovery codes):
// only their SHA-256 is stored, and a presented token is looked up by that hash, so the lookup
// never compares secret bytes (nothing to time).
import { createHash, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { BASE62_ALPHABET as BASE62 } from "@verdict/kit";

function random62(length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += BASE62[randomInt(62)];
  return out;
}

/**
 * `vdt_inv_…`, `vdt_ses_…`, `vdt_mfa_…`, `vdt_pwr_…` (password reset): prefixed so leaked ones are
 * recognisable. 43 base62 ≈ 256 bits.
 */
export function newToken(kind: "inv" | "ses" | "mfa" | "pwr"): string {
  return `vdt_${kind}_${random62(43)}`;
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

/** Ten one-time codes like `k7hq-m2xp-9wde` (about 70 bits each). */
export function newRecoveryCodes(count = 10): string[] {
  return Array.from({ length: count }, () => {
    const bytes = randomBytes(12);
    const chars = [...bytes].map((b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]).join("");
    return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 12)}`;
  });
}

export function normalizeRecoveryCode(code: string): string {
  return code.trim().toLowerCase().replace(/\s+/g, "");
}

/** Equal-length hex digests compared in constant time. */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, "utf8");
  const y = Buffer.from(b, "utf8");
  return x.length === y.length && timingSafeEqual(x, y);
}
