// TOTP (RFC 6238: SHA-1, 6 digits, 30-second steps) through the otpauth library. A code is
// accepted one step either side of now (clock drift), and never for a step already used: a code
// seen over someone's shoulder cannot be replayed.
import { Secret, TOTP } from "otpauth";

export const TOTP_PERIOD_SECONDS = 30;

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totp(secretBase32: string, label = "Verdict"): TOTP {
  return new TOTP({
    issuer: "Verdict",
    label,
    algorithm: "SHA1",
    digits: 6,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

export function totpUri(secretBase32: string, email: string): string {
  return totp(secretBase32, email).toString();
}

/** The time step the code belongs to, or null when it is wrong or its step was used already. */
export function acceptedStep(
  secretBase32: string,
  code: string,
  nowMs: number,
  lastUsedStep: number | null,
): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totp(secretBase32).validate({ token: code, timestamp: nowMs, window: 1 });
  if (delta === null) return null;
  const step = Math.floor(nowMs / 1000 / TOTP_PERIOD_SECONDS) + delta;
  if (lastUsedStep !== null && step <= lastUsedStep) return null;
  return step;
}
