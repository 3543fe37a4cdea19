import { describe, expect, it } from "@jest/globals";
import { createHmac } from "node:crypto";
import { ACCOUNT_LOCKOUT, lockoutMs } from "./lockout.js";
import { leavesNoOwner, normalizeEmail, roleChangeRefusal, roleScopes } from "./member.js";
import { hashToken, newRecoveryCodes, newToken, normalizeRecoveryCode, sameDigest } from "./secrets.js";
import { sessionEnded } from "./session.js";
import { acceptedStep, newTotpSecret } from "./totp.js";

describe("roles", () => {
  it("map to the fixed scope sets", () => {
    expect(roleScopes("owner")).toEqual(["admin"]);
    expect(roleScopes("admin")).toEqual(["admin"]);
    expect(roleScopes("member")).toEqual(["read:evaluations", "read:policies", "read:org", "write:evaluations"]);
    expect(roleScopes("viewer")).toEqual(["read:evaluations", "read:policies", "read:org"]);
  });
  it("let only owners (and admin keys) touch the owner role", () => {
    expect(roleChangeRefusal(undefined, "owner", "viewer")).toBeUndefined();
    expect(roleChangeRefusal("owner", "owner", "viewer")).toBeUndefined();
    expect(roleChangeRefusal("admin", undefined, "owner")).toMatch(/owner/);
    expect(roleChangeRefusal("admin", "owner", undefined)).toMatch(/owner/);
    expect(roleChangeRefusal("admin", "member", "viewer")).toBeUndefined();
    expect(roleChangeRefusal("member", "viewer", "member")).toMatch(/Only owners and admins/);
  });
  it("keep the last owner", () => {
    expect(leavesNoOwner(1, "owner", "admin")).toBe(true);
    expect(leavesNoOwner(1, "owner", undefined)).toBe(true);
    expect(leavesNoOwner(2, "owner", undefined)).toBe(false);
    expect(leavesNoOwner(1, "admin", undefined)).toBe(false);
    expect(leavesNoOwner(1, "owner", "owner")).toBe(false);
  });
  it("treat emails case-insensitively", () => {
    expect(normalizeEmail("  Ada@Example.COM ")).toBe("ada@example.com");
  });
});

describe("lockout", () => {
  it("allows a few failures, then doubles the wait up to a ceiling", () => {
    expect([0, 4].map((n) => lockoutMs(n, ACCOUNT_LOCKOUT))).toEqual([0, 0]);
    expect([5, 6, 7].map((n) => lockoutMs(n, ACCOUNT_LOCKOUT))).toEqual([30_000, 60_000, 120_000]);
    expect(lockoutMs(50, ACCOUNT_LOCKOUT)).toBe(15 * 60_000);
  });
});

describe("tokens", () => {
  it("are prefixed, 256-bit, distinct, and stored as digests compared in constant time", () => {
    const a = newToken("ses");
    expect(a).toMatch(/^vdt_ses_[0-9A-Za-z]{43}$/);
    expect(newToken("ses")).not.toBe(a);
    expect(hashToken(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(sameDigest(hashToken(a), hashToken(a))).toBe(true);
    expect(sameDigest(hashToken(a), hashToken(a + "x"))).toBe(false);
    expect(sameDigest("ab", "abc")).toBe(false);
  });
  it("make ten distinct recovery codes that survive retyping", () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    expect(normalizeRecoveryCode(` ${codes[0]!.toUpperCase()} `)).toBe(codes[0]);
  });
});

describe("sessions", () => {
  const policy = { idleMs: 30 * 60_000, absoluteMs: 12 * 3_600_000 };
  const s = { last_seen_at: "2026-01-01T10:00:00.000Z", expires_at: "2026-01-01T20:00:00.000Z" };
  it("end when idle too long or past their absolute end", () => {
    expect(sessionEnded(s, new Date("2026-01-01T10:29:59.999Z"), policy)).toBe(false);
    expect(sessionEnded(s, new Date("2026-01-01T10:30:00.000Z"), policy)).toBe(true);
    expect(
      sessionEnded({ ...s, last_seen_at: "2026-01-01T19:59:00.000Z" }, new Date("2026-01-01T20:00:00.000Z"), policy),
    ).toBe(true);
  });
});

/** RFC 6238 by hand (HMAC-SHA1 over the step counter), independent of the otpauth library. */
function rfcCode(secretBase32: string, step: number): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const c of secretBase32) bits += alphabet.indexOf(c).toString(2).padStart(5, "0");
  const key = Buffer.from(bits.match(/.{8}/g)!.map((b) => parseInt(b, 2)));
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(step));
  const mac = createHmac("sha1", key).update(msg).digest();
  const o = mac[19]! & 0xf;
  return String((mac.readUInt32BE(o) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

describe("TOTP", () => {
  const secret = newTotpSecret();
  const now = 1_800_000_000_000;
  const step = Math.floor(now / 30_000);
  it("accepts the current step and one either side, answering the step", () => {
    expect(acceptedStep(secret, rfcCode(secret, step), now, null)).toBe(step);
    expect(acceptedStep(secret, rfcCode(secret, step - 1), now, null)).toBe(step - 1);
    expect(acceptedStep(secret, rfcCode(secret, step + 1), now, null)).toBe(step + 1);
    expect(acceptedStep(secret, rfcCode(secret, step + 2), now, null)).toBeNull();
  });
  it("refuses a step at or before the last one used, and anything not six digits", () => {
    expect(acceptedStep(secret, rfcCode(secret, step), now, step)).toBeNull();
    expect(acceptedStep(secret, rfcCode(secret, step - 1), now, step - 1)).toBeNull();
    expect(acceptedStep(secret, rfcCode(secret, step + 1), now, step)).toBe(step + 1);
    expect(acceptedStep(secret, "12345", now, null)).toBeNull();
    expect(acceptedStep(secret, "12345a", now, null)).toBeNull();
  });
});
