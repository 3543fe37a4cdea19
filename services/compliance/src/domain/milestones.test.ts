import { describe, expect, it } from "@jest/globals";
import { milestoneOf, REMEDIATION_SLA_DAYS } from "./milestones.js";

const FIRST = { evaluation_id: "eval_1", at: "2026-03-02T10:00:00.000Z" };
const TRIAGE = {
  repository: "acme/api",
  identity: "fp",
  state: "accepted_risk" as const,
  reason: "vendor patch due",
  expires_at: "2026-06-30T00:00:00.000Z",
  updated_at: "2026-03-03T00:00:00.000Z",
};

describe("a finding's milestone", () => {
  it("is the remediation target for what is still in the code, by severity", () => {
    expect(REMEDIATION_SLA_DAYS).toEqual({ error: 30, warning: 90 });
    expect(milestoneOf({ status: "open", severity: "error", first_seen: FIRST })).toMatchObject({
      kind: "remediation-target",
      date: "2026-04-01T10:00:00.000Z",
    });
    expect(milestoneOf({ status: "open", severity: "warning", first_seen: FIRST })?.date).toBe(
      "2026-05-31T10:00:00.000Z",
    );
    // Suppressed from its first sighting (no reported severity): the strictest target.
    expect(milestoneOf({ status: "suppressed", severity: "", first_seen: FIRST })).toMatchObject({
      kind: "remediation-target",
      date: "2026-04-01T10:00:00.000Z",
      description: expect.stringContaining("severity not reported"),
    });
  });

  it("is the acceptance's expiry for an accepted risk, and none once nothing is left to do", () => {
    expect(
      milestoneOf({ status: "accepted_risk", severity: "error", first_seen: FIRST, triage: TRIAGE }),
    ).toMatchObject({ kind: "risk-acceptance-expiry", date: "2026-06-30T00:00:00.000Z" });
    expect(milestoneOf({ status: "fixed", severity: "error", first_seen: FIRST })).toBeUndefined();
    expect(
      milestoneOf({ status: "false_positive", severity: "error", first_seen: FIRST, triage: { ...TRIAGE } }),
    ).toBeUndefined();
  });
});
