// API keys: `vdt_key_<prod|test>_<32 random base62><6 base62 CRC-32 checksum>`.
// The checksum lets us reject typos and truncated keys before any lookup; only a SHA-256 hash
// of the key is ever stored.
import { createHash, randomInt } from "node:crypto";
import { BlockList, isIP } from "node:net";
import { API_SCOPES, BASE62_ALPHABET as BASE62, base62, crc32Base62 } from "@verdict/kit";

export const KEY_PREFIX = "vdt";
export const ENVIRONMENTS = ["prod", "test"] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

const KEY_RE = /^vdt_key_(prod|test)_([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/;

export { base62 };

export function checksum(random: string): string {
  return crc32Base62(random);
}

export function generateKey(environment: Environment): string {
  let random = "";
  for (let i = 0; i < 32; i++) random += BASE62[randomInt(62)];
  return `${KEY_PREFIX}_key_${environment}_${random}${checksum(random)}`;
}

export type ParsedKey = { ok: true; environment: Environment } | { ok: false; reason: "format" | "checksum" };

/** Checks the shape and checksum of a presented key without touching storage. */
export function parseKey(key: string): ParsedKey {
  const m = KEY_RE.exec(key);
  if (!m) return { ok: false, reason: "format" };
  if (checksum(m[2]!) !== m[3]) return { ok: false, reason: "checksum" };
  return { ok: true, environment: m[1] as Environment };
}

export function hashKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** What lists show of a key: enough to recognise it, too little to use it. */
export function displayPrefix(key: string): string {
  return key.slice(0, "vdt_key_prod_".length + 4);
}

export const SCOPES = API_SCOPES;

/** admin implies every scope. */
export function hasScope(granted: readonly string[], required: string): boolean {
  return granted.includes("admin") || granted.includes(required);
}

export const EXPIRATIONS = ["30m", "24h", "7d", "90d", "never"] as const;
export type Expiration = (typeof EXPIRATIONS)[number];

const EXPIRATION_MS: Record<Expiration, number | null> = {
  "30m": 30 * 60_000,
  "24h": 24 * 3_600_000,
  "7d": 7 * 86_400_000,
  "90d": 90 * 86_400_000,
  never: null,
};

export function expiresAt(expiration: Expiration, now: Date): string | null {
  const ms = EXPIRATION_MS[expiration];
  return ms === null ? null : new Date(now.getTime() + ms).toISOString();
}

/** Parses `10.0.0.0/8, 192.168.1.5` style allowlists; returns the bad entries when any. */
export function parseAllowlist(entries: string[]): { cidrs: string[]; invalid: string[] } {
  const cidrs: string[] = [];
  const invalid: string[] = [];
  for (const raw of entries.map((e) => e.trim()).filter(Boolean)) {
    const [addr, bits, extra] = raw.split("/");
    const family = isIP(addr ?? "");
    const max = family === 6 ? 128 : 32;
    const prefix = bits === undefined ? max : Number(bits);
    if (
      !family ||
      extra !== undefined ||
      !Number.isInteger(prefix) ||
      prefix < 0 ||
      prefix > max ||
      (bits !== undefined && !/^\d+$/.test(bits))
    ) {
      invalid.push(raw);
      continue;
    }
    cidrs.push(`${addr}/${prefix}`);
  }
  return { cidrs, invalid };
}

/** True when the allowlist is empty or the address falls in one of its ranges. */
export function ipAllowed(cidrs: string[], clientIp: string): boolean {
  if (!cidrs.length) return true;
  const ip = clientIp.startsWith("::ffff:") && isIP(clientIp.slice(7)) === 4 ? clientIp.slice(7) : clientIp;
  const family = isIP(ip);
  if (!family) return false;
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [addr, bits] = cidr.split("/");
    const f = isIP(addr!);
    list.addSubnet(addr!, Number(bits), f === 6 ? "ipv6" : "ipv4");
  }
  return list.check(ip, family === 6 ? "ipv6" : "ipv4");
}

/** What a key may pass on: the parts of a key record that bound the keys it creates. */
export interface KeyGrant {
  scopes: readonly string[];
  environment: Environment;
  /** null: never expires. */
  expires_at: string | null;
  /** Empty: any address. */
  ip_allowlist: readonly string[];
}

export type ContainmentProblem = { field: "scopes" | "expiration" | "environment" | "ip_allowlist"; message: string };

function cidrWithin(inner: string, outer: string): boolean {
  const [innerAddr, innerBits] = inner.split("/");
  const [, outerBits] = outer.split("/");
  // The inner range lies in the outer one when it is no wider and its first address is inside.
  return Number(innerBits) >= Number(outerBits) && ipAllowed([outer], innerAddr!);
}

/**
 * A key creates only keys it could itself stand in for (as GitHub's fine-grained tokens do):
 * no scope it lacks, no later expiry, no `prod` key from a `test` one, and no address its own
 * allowlist refuses. Answers one problem per offending field; empty: the request is contained.
 */
export function containmentProblems(creator: KeyGrant, requested: KeyGrant): ContainmentProblem[] {
  const problems: ContainmentProblem[] = [];
  const missing = requested.scopes.filter((s) => !hasScope(creator.scopes, s));
  if (missing.length)
    problems.push({
      field: "scopes",
      message: `The creating key does not hold ${missing.join(", ")}; a key can only grant scopes it has`,
    });
  if (creator.expires_at !== null && (requested.expires_at === null || requested.expires_at > creator.expires_at)) {
    problems.push({
      field: "expiration",
      message: `The creating key expires at ${creator.expires_at}; choose an expiration that ends no later`,
    });
  }
  if (creator.environment === "test" && requested.environment !== "test") {
    problems.push({ field: "environment", message: "A test key can only create test keys" });
  }
  if (creator.ip_allowlist.length) {
    const outside = requested.ip_allowlist.filter((c) => !creator.ip_allowlist.some((o) => cidrWithin(c, o)));
    if (!requested.ip_allowlist.length)
      problems.push({
        field: "ip_allowlist",
        message: `The creating key is restricted to ${creator.ip_allowlist.join(", ")}; the new key needs an allowlist within it`,
      });
    else if (outside.length)
      problems.push({
        field: "ip_allowlist",
        message: `Not within the creating key's allowlist (${creator.ip_allowlist.join(", ")}): ${outside.join(", ")}`,
      });
  }
  return problems;
}
