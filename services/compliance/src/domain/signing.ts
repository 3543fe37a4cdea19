// Signed, expiring download links: HMAC-SHA256 over the report id and the expiry, so the link
// works without an API key, only for that report, and only until it expires.
import { createHmac, timingSafeEqual } from "node:crypto";

export function signDownload(key: string, reportId: string, expires: number): string {
  return createHmac("sha256", key).update(`${reportId}.${expires}`).digest("base64url");
}

export type LinkCheck = "ok" | "invalid" | "expired";

export function checkDownload(
  key: string,
  reportId: string,
  expires: number,
  signature: string,
  nowSec: number,
): LinkCheck {
  if (!Number.isSafeInteger(expires) || expires <= 0) return "invalid";
  const want = Buffer.from(signDownload(key, reportId, expires));
  const got = Buffer.from(signature);
  if (want.length !== got.length || !timingSafeEqual(want, got)) return "invalid";
  return nowSec >= expires ? "expired" : "ok";
}
