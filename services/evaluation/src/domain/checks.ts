// Structural checks: what a token format promises beyond what a regular expression can say. A rule
// names the checks its matches must pass (`checks` on the pattern); a match that fails one is not a
// finding. Each check reads the match (and at most a bounded part of the file), so scanning stays
// linear in the input. Built-in rules only: custom policies are RE2 patterns alone.
import { crc32Base62 } from "@verdict/kit";
import { isEncodedText, isExamplePassword } from "./noise.js";

export interface CheckInput {
  /** The secret (the rule's capture group), or the whole match when the rule has none. */
  secret: string;
  /** The whole match. */
  match: string;
  /** The file, and the match's byte offsets in it. */
  content: Buffer;
  start: number;
  end: number;
}

export type Check = (input: CheckInput) => boolean;

const TOKEN_BODY = /^[0-9A-Za-z]+$/;

/**
 * `<prefix>_<30 random base62><6 base62 CRC-32 of the random part>`: GitHub's tokens since 2021
 * (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`) and npm's (`npm_`). A made-up look-alike passes with a
 * chance of one in 62^6 (about 5.7e10).
 */
function crc32Token(input: CheckInput): boolean {
  const token = input.secret;
  const underscore = token.indexOf("_");
  const body = token.slice(underscore + 1);
  if (underscore < 0 || body.length < 7 || !TOKEN_BODY.test(body)) return false;
  return crc32Base62(body.slice(0, -6)) === body.slice(-6);
}

/** A JSON Web Token's first segment is base64url JSON naming its algorithm. */
function jwtHeader(input: CheckInput): boolean {
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
function jwtBase64(input: CheckInput): boolean {
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
  return /^\{"[\w-]+"\s*:/.test(header) && [...header].every((c) => c >= " " || c === "\n" || c === "\r" || c === "\t") && !header.includes("\ufffd");
}

/**
 * HTTP Basic credentials: base64 of `user:password` in printable text, the password not one that
 * stands for a password (`dXNlcjpwYXNz` is `user:pass`). An empty password passes: services that
 * take an API key as the user name (`sk_live_…:`) send exactly that.
 */
function basicCredentials(input: CheckInput): boolean {
  const decoded = Buffer.from(input.secret, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0 || decoded.includes("\ufffd") || ![...decoded].every((c) => c >= " " && c !== "\u007f")) return false;
  return !isExamplePassword(decoded.slice(colon + 1));
}

export const CHECKS: Readonly<Record<string, Check>> = {
  "github-crc32": crc32Token,
  "npm-crc32": crc32Token,
  "jwt-header": jwtHeader,
  /** The value is not base64 of ordinary words (generic rules: encoded prose is no secret). */
  "not-encoded-text": (input) => !isEncodedText(input.secret),
  /** base64 of `user:password`, the password no stand-in. */
  "basic-credentials": basicCredentials,
  /** base64 of a JSON Web Token whose header is a JSON object. */
  "jwt-base64": jwtBase64,
};

/** The named checks, or an error naming the first unknown one (a mistake in a rule definition). */
export function resolveChecks(names: readonly string[], ruleId: string): Check[] {
  return names.map((name) => {
    const check = CHECKS[name];
    if (!check) throw new Error(`Rule '${ruleId}' names an unknown check '${name}' (known: ${Object.keys(CHECKS).join(", ")})`);
    return check;
  });
}
