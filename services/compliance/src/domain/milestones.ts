// A finding's milestone in the plan of action: the date by which something must happen to it.
// - open or suppressed (still in the code): the remediation target, its first sighting plus the
//   remediation SLA of its severity;
// - accepted risk: the acceptance's expiry, when the deviation ends and the risk is reviewed (the
//   finding reopens then);
// - fixed or false positive: none (nothing is left to do).
import type { TrackedFinding } from "./findings.js";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Days from a finding's first sighting to its remediation target, by the severity of its policy
 * (Verdict's severities are `error` and `warning`). A finding suppressed from its first sighting
 * has no reported severity: it gets the strictest target.
 */
export const REMEDIATION_SLA_DAYS = { error: 30, warning: 90 } as const;

export interface Milestone {
  kind: "remediation-target" | "risk-acceptance-expiry";
  /** ISO 8601 date-time. */
  date: string;
  title: string;
  description: string;
}

const slaDays = (severity: string) =>
  severity === "warning" ? REMEDIATION_SLA_DAYS.warning : REMEDIATION_SLA_DAYS.error;

export function milestoneOf(
  f: Pick<TrackedFinding, "status" | "severity" | "first_seen" | "triage">,
): Milestone | undefined {
  switch (f.status) {
    case "open":
    case "suppressed": {
      const days = slaDays(f.severity);
      const date = new Date(Date.parse(f.first_seen.at) + days * DAY_MS).toISOString();
      return {
        kind: "remediation-target",
        date,
        title: "Remediation target",
        description: `Remove the finding by ${date}: ${days} days from its first sighting on ${f.first_seen.at} (severity ${f.severity || "not reported"}).`,
      };
    }
    case "accepted_risk":
      if (!f.triage?.expires_at) return undefined;
      return {
        kind: "risk-acceptance-expiry",
        date: f.triage.expires_at,
        title: "Risk acceptance expires",
        description: `The accepted deviation ends on ${f.triage.expires_at}: review the risk then (the finding reopens unless it is accepted again or fixed).`,
      };
    default:
      return undefined;
  }
}
