// Evidence for a report: per framework and control, whether enabled policies cover it, which
// evaluations in the range checked it, its open, fixed and suppressed findings (findings.ts: one
// model of finding states), and the bypass events (inline verdict-ignore suppressions) of its
// policies.
//
// A control *passed* when evaluations in the range are evidence for it (one of its enabled
// policies ran and could apply to a file the evaluation read: applicability.ts) and none reported
// a violation of its policies; it is *remediated* when every violation found in the range was
// fixed, *failing* with an open violation, and *no evidence* otherwise. A violation later
// silenced in code is *suppressed*, never fixed.
import { evidencedPolicies, scopeTests, type PolicyScope } from "./applicability.js";
import type { Catalog, CatalogControl } from "./catalogs/types.js";
import { controlPolicies, frameworkCoverage, type FrameworkCoverage } from "./coverage.js";
import type { DateRange } from "./dateRange.js";
import type { BypassFact, EvaluationFact, ViolationFact } from "./facts.js";
import { byTime, trackFindings, type TrackedFinding, type TriageFact } from "./findings.js";

export type { BypassFact, EvaluationFact, ViolationFact };

export interface PolicyInfo {
  id: string;
  name: string;
  enabled: boolean;
  severity: string;
  frameworks: string[];
  /** Rule ids of the policy's detection rules (built-ins), for the catalog's props. */
  rules: string[];
  /** Which files it could apply to; absent for a policy that is not enabled (not resolved). */
  scope?: PolicyScope;
}

/** A finding as the reports read it (findings.ts: the one model of finding states). */
export type TrackedViolation = TrackedFinding;

export type ControlStatus = "passed" | "remediated" | "failing" | "no-evidence";

export interface ControlEvidence {
  control: CatalogControl;
  covered: boolean;
  /** Enabled policies mapped to the control. */
  policies: string[];
  /** Every policy mapped to the control, enabled or not. */
  mapped_policies: string[];
  status: ControlStatus;
  /** Evaluations in the range that are evidence for the control (applicability.ts). */
  evaluations: string[];
  repositories: string[];
  open: TrackedViolation[];
  fixed: TrackedViolation[];
  /** Reported as violations, then silenced in code: still there, so neither open nor fixed. */
  suppressed: TrackedViolation[];
  /** Reported as violations, then triaged by a member: false positives and accepted risks. */
  triaged: TrackedViolation[];
  bypasses: BypassFact[];
}

export interface FrameworkEvidence {
  catalog: Catalog;
  coverage: FrameworkCoverage;
  controls: ControlEvidence[];
  counts: Record<ControlStatus, number>;
}

export interface Evidence {
  organization_id: string;
  report_id: string;
  range: DateRange;
  generated_at: string;
  policies: PolicyInfo[];
  evaluations: EvaluationFact[];
  frameworks: FrameworkEvidence[];
}

export interface EvidenceInput {
  organizationId: string;
  reportId: string;
  range: DateRange;
  generatedAt: string;
  catalogs: Catalog[];
  policies: PolicyInfo[];
  /** Completed evaluations in the range. */
  evaluations: EvaluationFact[];
  violations: ViolationFact[];
  bypasses: BypassFact[];
  /** Members' triage of findings (false positive, accepted risk), as it is when the report is made. */
  triage?: TriageFact[];
}

function controlStatus(checked: number, open: number, fixed: number): ControlStatus {
  if (open > 0) return "failing";
  if (fixed > 0) return "remediated";
  return checked > 0 ? "passed" : "no-evidence";
}

export function assembleEvidence(input: EvidenceInput): Evidence {
  const evaluations = [...input.evaluations].sort(byTime);
  const tracked = trackFindings(evaluations, input.violations, input.bypasses, {
    facts: input.triage ?? [],
    now: input.generatedAt,
  });
  const mappedAll = controlPolicies(input.policies, false);
  const tests = scopeTests(input.policies);
  const evidenced = new Map(evaluations.map((e) => [e.id, evidencedPolicies(e, tests)]));
  const frameworks = input.catalogs.map((catalog): FrameworkEvidence => {
    const coverage = frameworkCoverage(catalog, input.policies);
    const counts: Record<ControlStatus, number> = { passed: 0, remediated: 0, failing: 0, "no-evidence": 0 };
    const controls = catalog.controls.map((control, i): ControlEvidence => {
      const mapped = mappedAll.get(`${catalog.id}:${control.id}`) ?? [];
      const mappedSet = new Set(mapped);
      const ran = evaluations.filter((e) => mapped.some((p) => evidenced.get(e.id)!.has(p)));
      const mine = tracked.filter((t) => mappedSet.has(t.policy_id));
      const open = mine.filter((t) => t.status === "open");
      const fixed = mine.filter((t) => t.status === "fixed");
      const suppressed = mine.filter((t) => t.status === "suppressed" && t.reported);
      const triaged = mine.filter((t) => (t.status === "false_positive" || t.status === "accepted_risk") && t.reported);
      const bypasses = input.bypasses.filter((b) => mappedSet.has(b.policy_id));
      const status = controlStatus(ran.length, open.length, fixed.length);
      counts[status]++;
      return {
        control,
        covered: coverage.controls[i]!.covered,
        policies: coverage.controls[i]!.policies,
        mapped_policies: mapped,
        status,
        evaluations: ran.map((e) => e.id),
        repositories: [...new Set([...ran.map((e) => e.repository), ...bypasses.map((b) => b.repository)])].sort(),
        open,
        fixed,
        suppressed,
        triaged,
        bypasses,
      };
    });
    return { catalog, coverage, controls, counts };
  });
  return {
    organization_id: input.organizationId,
    report_id: input.reportId,
    range: input.range,
    generated_at: input.generatedAt,
    policies: input.policies,
    evaluations,
    frameworks,
  };
}
