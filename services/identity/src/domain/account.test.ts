import { describe, expect, it } from "@jest/globals";
import { joinProof, mayProvisionWithoutConsent, mayResetFrom, type AccountStanding } from "./account.js";
import { ACCOUNT_LOCKOUT, countAttempt, refundAttempt } from "./lockout.js";
import { passwordProblems } from "./passwordRules.js";

const standing = (s: Partial<AccountStanding>): AccountStanding => ({
  hasPassword: false,
  idpOrganizationIds: [],
  activeOrganizationIds: [],
  ...s,
});

describe("the account-binding rule", () => {
  it("lets only a brand-new account choose its first password at an invitation", () => {
    expect(joinProof(standing({}))).toBe("new_password");
    // SCIM or SSO made it (even with no membership left): signed in only.
    expect(joinProof(standing({ idpOrganizationIds: ["org_b"] }))).toBe("session");
    expect(joinProof(standing({ activeOrganizationIds: ["org_b"] }))).toBe("session");
    expect(joinProof(standing({ hasPassword: true, activeOrganizationIds: ["org_b"] }))).toBe("password");
  });

  it("lets a SCIM token link only accounts nobody else controls", () => {
    expect(mayProvisionWithoutConsent(standing({ idpOrganizationIds: ["org_b"] }), "org_b")).toBe(true);
    expect(mayProvisionWithoutConsent(standing({}), "org_b")).toBe(true);
    expect(mayProvisionWithoutConsent(standing({ activeOrganizationIds: ["org_h"] }), "org_b")).toBe(false);
    expect(mayProvisionWithoutConsent(standing({ idpOrganizationIds: ["org_h"] }), "org_b")).toBe(false);
    expect(mayProvisionWithoutConsent(standing({ hasPassword: true }), "org_b")).toBe(false);
    // Already a member here (the person joined themselves): linking is theirs to keep.
    expect(
      mayProvisionWithoutConsent(standing({ hasPassword: true, activeOrganizationIds: ["org_h", "org_b"] }), "org_b"),
    ).toBe(true);
  });

  it("lets an admin reset only accounts bound to their organization alone", () => {
    expect(mayResetFrom(standing({ hasPassword: true, activeOrganizationIds: ["org_h"] }), "org_h")).toBe(true);
    expect(mayResetFrom(standing({ activeOrganizationIds: ["org_b"], idpOrganizationIds: ["org_b"] }), "org_b")).toBe(
      true,
    );
    expect(mayResetFrom(standing({ hasPassword: true, activeOrganizationIds: ["org_h", "org_b"] }), "org_h")).toBe(
      false,
    );
    expect(mayResetFrom(standing({ activeOrganizationIds: ["org_h"], idpOrganizationIds: ["org_b"] }), "org_h")).toBe(
      false,
    );
    expect(mayResetFrom(standing({ hasPassword: true }), "org_h")).toBe(false);
  });

  it("asks new passwords for 12 to 256 characters, on the field given", () => {
    expect(passwordProblems("x".repeat(11), "new_password")).toMatchObject([
      { field: "new_password", code: "MIN_SIZE_REQUIRED", min: 12 },
    ]);
    expect(passwordProblems("x".repeat(257), "password")).toMatchObject([
      { field: "password", code: "MAX_SIZE_EXCEEDED", max: 256 },
    ]);
    expect(passwordProblems("x".repeat(12), "password")).toEqual([]);
  });
});

describe("attempts counted before their check", () => {
  const t0 = Date.parse("2026-06-01T12:00:00Z");

  it("lock at the fifth and refuse the sixth while locked", () => {
    let state = null;
    for (let i = 1; i <= 5; i++) {
      const c = countAttempt(state, t0, ACCOUNT_LOCKOUT);
      if (c.kind !== "counted") throw new Error("expected counted");
      expect(c.locks).toBe(i === 5);
      state = c.state;
    }
    expect(countAttempt(state, t0 + 1000, ACCOUNT_LOCKOUT)).toEqual({ kind: "locked", retryAfterSeconds: 29 });
    const later = countAttempt(state, t0 + 31_000, ACCOUNT_LOCKOUT);
    expect(later).toMatchObject({ kind: "counted", locks: true, state: { failures: 6 } });
  });

  it("give one back when the check passed, unlocking when that is few enough", () => {
    const five = { failures: 5, last_failure_at: "2026-06-01T12:00:00.000Z", locked_until: "2026-06-01T12:00:30.000Z" };
    expect(refundAttempt(five, ACCOUNT_LOCKOUT)).toEqual({ ...five, failures: 4, locked_until: null });
    const six = { ...five, failures: 6 };
    expect(refundAttempt(six, ACCOUNT_LOCKOUT)).toEqual({ ...six, failures: 5 });
    expect(refundAttempt({ ...five, failures: 0, locked_until: null }, ACCOUNT_LOCKOUT).failures).toBe(0);
  });
});
