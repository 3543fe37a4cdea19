import { describe, expect, it } from "@jest/globals";
import {
  base62,
  checksum,
  containmentProblems,
  displayPrefix,
  expiresAt,
  generateKey,
  hasScope,
  ipAllowed,
  parseAllowlist,
  parseKey,
} from "./apiKey.js";

describe("API key format", () => {
  it("generates keys of the documented shape that pass their own checksum", () => {
    for (const env of ["prod", "test"] as const) {
      const key = generateKey(env);
      expect(key).toMatch(new RegExp(`^vdt_key_${env}_[0-9A-Za-z]{38}$`));
      expect(parseKey(key)).toEqual({ ok: true, environment: env });
    }
  });

  it("computes the checksum as CRC-32 (IEEE) in 6 base62 digits", () => {
    // CRC-32 of "123456789" is 0xCBF43926 = 3421780262.
    expect(checksum("123456789")).toBe(base62(3421780262, 6));
    expect(base62(0, 6)).toBe("000000");
    expect(base62(61, 2)).toBe("0z");
  });

  it("rejects malformed keys and keys whose checksum does not match", () => {
    const key = generateKey("prod");
    expect(parseKey("not-a-key")).toEqual({ ok: false, reason: "format" });
    expect(parseKey(key.slice(0, -1))).toEqual({ ok: false, reason: "format" });
    const flipped = key.slice(0, 20) + (key[20] === "A" ? "B" : "A") + key.slice(21);
    expect(parseKey(flipped)).toEqual({ ok: false, reason: "checksum" });
  });

  it("shows only a short prefix", () => {
    expect(displayPrefix("vdt_key_prod_AbCdEfGh")).toBe("vdt_key_prod_AbCd");
  });
});

describe("scopes and expiry", () => {
  it("lets admin imply every scope", () => {
    expect(hasScope(["admin"], "write:policies")).toBe(true);
    expect(hasScope(["read:policies"], "write:policies")).toBe(false);
    expect(hasScope(["read:policies"], "read:policies")).toBe(true);
  });

  it("turns expiration choices into timestamps", () => {
    const now = new Date("2026-01-01T00:00:00.000Z");
    expect(expiresAt("30m", now)).toBe("2026-01-01T00:30:00.000Z");
    expect(expiresAt("90d", now)).toBe("2026-04-01T00:00:00.000Z");
    expect(expiresAt("never", now)).toBeNull();
  });
});

describe("IP allowlists", () => {
  it("parses CIDRs and single addresses and reports bad entries", () => {
    expect(parseAllowlist(["10.0.0.0/8", " 192.168.1.5 ", "::1/128"])).toEqual({
      cidrs: ["10.0.0.0/8", "192.168.1.5/32", "::1/128"],
      invalid: [],
    });
    expect(parseAllowlist(["10.0.0.0/33", "banana", "1.2.3.4/x", ""]).invalid).toEqual([
      "10.0.0.0/33",
      "banana",
      "1.2.3.4/x",
    ]);
  });

  it("matches IPv4, IPv6 and IPv4-mapped addresses", () => {
    expect(ipAllowed([], "8.8.8.8")).toBe(true);
    expect(ipAllowed(["10.0.0.0/8"], "10.1.2.3")).toBe(true);
    expect(ipAllowed(["10.0.0.0/8"], "::ffff:10.1.2.3")).toBe(true);
    expect(ipAllowed(["10.0.0.0/8"], "127.0.0.1")).toBe(false);
    expect(ipAllowed(["::1/128"], "::1")).toBe(true);
    expect(ipAllowed(["10.0.0.0/8"], "garbage")).toBe(false);
  });
});

describe("key containment", () => {
  const creator = {
    scopes: ["read:org", "write:org"],
    environment: "test" as const,
    expires_at: "2030-01-01T00:30:00.000Z",
    ip_allowlist: ["10.0.0.0/8"],
  };
  const fields = (requested: Parameters<typeof containmentProblems>[1]) =>
    containmentProblems(creator, requested).map((p) => p.field);

  it("accepts a key within the creator on every dimension", () => {
    expect(
      fields({
        scopes: ["read:org"],
        environment: "test",
        expires_at: "2030-01-01T00:00:00.000Z",
        ip_allowlist: ["10.1.0.0/16"],
      }),
    ).toEqual([]);
  });

  it("names each dimension that exceeds the creator", () => {
    expect(fields({ scopes: ["admin"], environment: "prod", expires_at: null, ip_allowlist: [] })).toEqual([
      "scopes",
      "expiration",
      "environment",
      "ip_allowlist",
    ]);
    expect(
      fields({
        scopes: ["read:org"],
        environment: "test",
        expires_at: "2030-01-01T00:30:00.001Z",
        ip_allowlist: ["10.0.0.0/8"],
      }),
    ).toEqual(["expiration"]);
    expect(
      fields({ scopes: ["read:org"], environment: "test", expires_at: null, ip_allowlist: ["10.0.0.0/7"] }),
    ).toEqual(["expiration", "ip_allowlist"]);
    expect(
      fields({ scopes: ["read:org"], environment: "test", expires_at: creator.expires_at, ip_allowlist: ["::1/128"] }),
    ).toEqual(["ip_allowlist"]);
  });

  it("lets an admin, prod, never-expiring, unrestricted key create anything", () => {
    const root = { scopes: ["admin"], environment: "prod" as const, expires_at: null, ip_allowlist: [] };
    expect(
      containmentProblems(root, {
        scopes: ["admin", "write:org"],
        environment: "prod",
        expires_at: null,
        ip_allowlist: [],
      }),
    ).toEqual([]);
  });
});
