// Checks of token formats: checksums and embedded structure that a regular expression cannot say.
// The checksum module alone: the engine also runs in the CLI (--offline), without the rest of kit.
import { crc32Base62 } from "@verdict/kit/checksum";
import { isExamplePassword } from "../noise.js";
import type { CheckInput } from "./input.js";

const TOKEN_BODY = /^[0-9A-Za-z]+$/;

/**
 * `<prefix>_<30 random base62><6 base62 CRC-32 of the random part>`: GitHub's tokens since 2021
 * (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`) and npm's (`npm_`). A made-up look-alike passes with a
 * chance of one in 62^6 (about 5.7e10).
 */
export function crc32Token(input: CheckInput): boolean {
  const token = input.secret;
  const underscore = token.indexOf("_");
  const body = token.slice(underscore + 1);
  if (underscore < 0 || body.length < 7 || !TOKEN_BODY.test(body)) return false;
  return crc32Base62(body.slice(0, -6)) === body.slice(-6);
}

/**
 * Sentry organization tokens: `sntrys_<base64 JSON payload>_<secret>`, the payload naming when the
 * token was issued (`iat`) and the region it is for (`region_url`).
 */
export function sentryOrgToken(input: CheckInput): boolean {
  const body = input.secret.slice("sntrys_".length);
  const last = body.lastIndexOf("_");
  if (!input.secret.startsWith("sntrys_") || last <= 0) return false;
  try {
    const payload: unknown = JSON.parse(Buffer.from(body.slice(0, last), "base64").toString("utf8"));
    return typeof payload === "object" && payload !== null && "iat" in payload && "region_url" in payload;
  } catch {
    return false;
  }
}

/** A JSON Web Token's first segment is base64url JSON naming its algorithm. */
export function jwtHeader(input: CheckInput): boolean {
  const dot = input.secret.indexOf(".");
  if (dot <= 0) return false;
  try {
    const header: unknown = JSON.parse(Buffer.from(input.secret.slice(0, dot), "base64url").toString("utf8"));
    return typeof header === "object" && header !== null && typeof (header as { alg?: unknown }).alg === "string";
  } catch {
    return false;
  }
}

/**
 * A JSON Web Token encoded once more in base64 (`ZXlK…` is base64 of `eyJ`): the decoded text's
 * first segment is base64url of a JSON object. Only the header is read, so a token cut short
 * (wrapped, truncated in a log) still passes when what is left of its header reads as JSON.
 */
export function jwtBase64(input: CheckInput): boolean {
  const decoded = Buffer.from(input.secret.replace(/[\r\n\\]/g, ""), "base64").toString("latin1");
  const dot = decoded.indexOf(".");
  const segment = dot < 0 ? decoded.slice(0, decoded.length - (decoded.length % 4)) : decoded.slice(0, dot);
  if (!/^eyJ[A-Za-z0-9_-]+$/.test(segment)) return false;
  const header = Buffer.from(segment, "base64url").toString("utf8");
  if (dot >= 0) {
    try {
      const parsed: unknown = JSON.parse(header);
      return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed);
    } catch {
      return false;
    }
  }
  // A header cut short: JSON text, an object with a quoted first member.
  return (
    /^\{"[\w-]+"\s*:/.test(header) &&
    [...header].every((c) => c >= " " || c === "\n" || c === "\r" || c === "\t") &&
    !header.includes("\ufffd")
  );
}

/**
 * HTTP Basic credentials: base64 of `user:password` in printable text, the password not one that
 * stands for a password (`dXNlcjpwYXNz` is `user:pass`). An empty password passes: services that
 * take an API key as the user name (`sk_live_…:`) send exactly that.
 */
export function basicCredentials(input: CheckInput): boolean {
  const decoded = Buffer.from(input.secret, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0 || decoded.includes("\ufffd") || ![...decoded].every((c) => c >= " " && c !== "\u007f")) return false;
  return !isExamplePassword(decoded.slice(colon + 1));
}

const SNOWFLAKE = /^[1-9][0-9]{16,19}$/;

/**
 * A Discord bot token's first segment is the bot's user id (a 17-20 digit snowflake) in base64:
 * `MTAx…` is "101…". Random look-alikes of the token's shape decode to bytes, not digits.
 */
export function discordUserId(input: CheckInput): boolean {
  const dot = input.secret.indexOf(".");
  if (dot <= 0) return false;
  return SNOWFLAKE.test(Buffer.from(input.secret.slice(0, dot), "base64url").toString("latin1"));
}

/**
 * base64 of a PEM private key (a kubeconfig's `client-key-data`): the decoded text is a PEM block
 * whose label names a private key (RFC 7468: `-----BEGIN RSA PRIVATE KEY-----`, `EC`, PKCS #8).
 * Only the first 96 characters are decoded: the label is at the start.
 */
export function base64PemPrivateKey(input: CheckInput): boolean {
  const head = input.secret.slice(0, 96);
  const decoded = Buffer.from(head.slice(0, head.length - (head.length % 4)), "base64").toString("latin1");
  return /^-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----/.test(decoded);
}

/**
 * A Mapbox token: `sk.<payload>.<signature>`, the payload base64url of a JSON object (Mapbox's
 * token format: https://docs.mapbox.com/api/accounts/tokens/#token-format).
 */
export function mapboxTokenPayload(input: CheckInput): boolean {
  const [, payload] = input.secret.split(".");
  if (!payload) return false;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}
