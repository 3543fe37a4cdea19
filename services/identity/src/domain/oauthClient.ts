// OAuth clients: applications an organization's admins register so that they can act for a
// member through the OAuth 2.0 authorization server. A confidential client gets a secret
// `vdt_ocs_<32 random base62><6 base62 CRC-32 checksum>` (the API keys' scheme: typos and
// truncations are refused before any lookup, leaked values are recognisable); only its SHA-256
// hash is stored. A public client (a native or single-page application) has no secret and must
// use PKCE.
import { createHash, randomInt } from "node:crypto";
import { BASE62_ALPHABET as BASE62, crc32Base62, type FieldError } from "@verdict/kit";

export const CLIENT_SECRET_PREFIX = "vdt_ocs_";
const SECRET_RE = /^vdt_ocs_([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/;

export function generateClientSecret(): string {
  let random = "";
  for (let i = 0; i < 32; i++) random += BASE62[randomInt(62)];
  return `${CLIENT_SECRET_PREFIX}${random}${crc32Base62(random)}`;
}

/** Shape and checksum of a presented client secret, without touching storage. */
export function clientSecretWellFormed(secret: string): boolean {
  const m = SECRET_RE.exec(secret);
  return m !== null && crc32Base62(m[1]!) === m[2];
}

export function hashClientSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Why a redirect URI is refused, or null when it is acceptable (RFC 6749 §3.1.2, RFC 8252 §7.3,
 * OAuth 2.0 Security BCP §4.1): absolute https, or http on a loopback host only; no fragment;
 * no wildcard (redirect URIs are compared exactly); no user information.
 */
export function redirectUriProblem(uri: string): string | null {
  // A URI is printable ASCII (RFC 3986 §2): whitespace, control characters (a trailing newline)
  // and other characters (a U+202E bidi override that shows another address than the one
  // matched) would be cleaned or read differently by the URL parser than compared here.
  if (!/^[\x21-\x7e]+$/.test(uri))
    return "must be printable ASCII: no spaces, control characters or non-ASCII characters (percent-encode them)";
  if (uri.includes("\\")) return "must not contain a backslash";
  if (uri.includes("*")) return "must not contain wildcards: redirect URIs are matched exactly";
  if (uri.includes("#")) return "must not contain a fragment";
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return "must be an absolute URL";
  }
  if (url.username || url.password) return "must not contain user information";
  // The parser forgives `https:///cb` (read as host "cb") and `https:/cb`: the authority must be
  // written out, as exact matching compares what is written.
  if ((url.protocol === "https:" || url.protocol === "http:") && !/^https?:\/\/[^/?#]/i.test(uri))
    return "must name a host after the scheme's //";
  if (url.protocol === "https:") return url.hostname ? null : "must name a host";
  if (url.protocol === "http:") {
    return LOOPBACK_HOSTS.has(url.hostname.toLowerCase())
      ? null
      : "must use https (plain http only for http://localhost, 127.0.0.1 or [::1])";
  }
  return "must use https (plain http only for http://localhost, 127.0.0.1 or [::1])";
}

/** Field errors for each refused redirect URI, named by their position (`redirect_uris[1]`). */
export function redirectUriErrors(uris: readonly string[]): FieldError[] {
  const out: FieldError[] = [];
  uris.forEach((uri, i) => {
    const problem = redirectUriProblem(uri);
    if (problem)
      out.push({ field: `redirect_uris[${i}]`, code: "INVALID_FORMAT", message: `redirect_uris[${i}] ${problem}` });
  });
  return out;
}
