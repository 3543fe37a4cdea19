// Evidence for a report: per framework and control, whether enabled policies cover it, which
// evaluations in the range checked it, its open and fixed violations, and the bypass events
// (inline verdict-ignore suppressions) of its policies.
//
// A violation is identified by repository + ref + policy + rule + file. It is *open* when the
// latest evaluation in the range of that repository and ref which ran its policy still reports
// it; it is *fixed* when a later evaluation of that repository and ref ran the policy and no
// longer reports it. A control *passed* when evaluations in the range are evidence for it (one of
// its enabled policies ran and could apply to a file the evaluation read: applicability.ts) and
// none reported a violation of its policies; it is *remediated* when every violation found in the
// range was fixed, *failing* with an open violation, and *no evidence* otherwise.
import { evidencedPolicies, scopeTests, type PolicyScope } from "./applicability.js";
import type { Catalog, CatalogControl } from "./catalogs/types.js";
import { controlPolicies, frameworkCoverage, type FrameworkCoverage } from "./coverage.js";
import type { DateRange } from "./dateRange.js";

export interface EvaluationFact {
  id: string;
  repository: string;
  ref: string;
  completed_at: string;
  passed: boolean;
  /** Policies that ran. */
  policies: string[];
  /** Files the engine read; absent on evaluations recorded before they were (no evidence). */
  scanned_paths?: string[];
}

export interface ViolationFact {
  id: string;
  evaluation_id: string;
  policy_id: string;
  rule_id: string;
  severity: string;
  file: string;
  line: number;
  message: string;
}

export interface BypassFact {
  id: string;
  evaluation_id: string;
  repository: string;
  ref: string;
  bypassed_at: string;
  policy_id: string;
  rule_id: string;
  file: string;
  line: number;
  reason: string;
}

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

export type ViolationStatus = "open" | "fixed";

export interface TrackedViolation {
  /** Stable identity across evaluations and reports. */
  key: string;
  repository: string;
  ref: string;
  policy_id: string;
  rule_id: string;
  file: string;
  line: number;
  severity: string;
  message: string;
  first_seen: { evaluation_id: string; at: string };
  last_seen: { evaluation_id: string; at: string };
  status: ViolationStatus;
  fixed_by?: { evaluation_id: string; at: string };
}

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
}

const byTime = (a: { completed_at: string; id: string }, b: { completed_at: string; id: string }) =>
  a.completed_at < b.completed_at ? -1 : a.completed_at > b.completed_at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

export function violationKey(v: {
  repository: string;
  ref: string;
  policy_id: string;
  rule_id: string;
  file: string;
}): string {
  return [v.repository, v.ref, v.policy_id, v.rule_id, v.file].join("\u0000");
}

/** Follows each violation through the later evaluations of its repository and ref. */
export function trackViolations(evaluations: EvaluationFact[], violations: ViolationFact[]): TrackedViolation[] {
  const evals = new Map(evaluations.map((e) => [e.id, e]));
  const streams = new Map<string, EvaluationFact[]>();
  for (const e of [...evaluations].sort(byTime)) {
    const k = `${e.repository}\u0000${e.ref}`;
    const list = streams.get(k) ?? [];
    list.push(e);
    streams.set(k, list);
  }
  const reported = new Set<string>();
  const tracked = new Map<string, TrackedViolation>();
  for (const v of violations) {
    const e = evals.get(v.evaluation_id);
    if (!e) continue;
    const key = violationKey({
      repository: e.repository,
      ref: e.ref,
      policy_id: v.policy_id,
      rule_id: v.rule_id,
      file: v.file,
    });
    reported.add(`${e.id}\u0000${key}`);
    const seen = { evaluation_id: e.id, at: e.completed_at };
    const t = tracked.get(key);
    if (!t) {
      tracked.set(key, {
        key,
        repository: e.repository,
        ref: e.ref,
        policy_id: v.policy_id,
        rule_id: v.rule_id,
        file: v.file,
        line: v.line,
        severity: v.severity,
        message: v.message,
        first_seen: seen,
        last_seen: seen,
        status: "open",
      });
      continue;
    }
    if (
      byTime(
        { completed_at: seen.at, id: seen.evaluation_id },
        { completed_at: t.first_seen.at, id: t.first_seen.evaluation_id },
      ) < 0
    )
      t.first_seen = seen;
    if (
      byTime(
        { completed_at: seen.at, id: seen.evaluation_id },
        { completed_at: t.last_seen.at, id: t.last_seen.evaluation_id },
      ) > 0
    ) {
      t.last_seen = seen;
      t.line = v.line;
      t.message = v.message;
      t.severity = v.severity;
    }
  }
  for (const t of tracked.values()) {
    const stream = streams.get(`${t.repository}\u0000${t.ref}`) ?? [];
    const later = stream.filter(
      (e) =>
        byTime(e, { completed_at: t.last_seen.at, id: t.last_seen.evaluation_id }) > 0 &&
        e.policies.includes(t.policy_id) &&
        !reported.has(`${e.id}\u0000${t.key}`),
    );
    if (later.length > 0) {
      t.status = "fixed";
      t.fixed_by = { evaluation_id: later[0]!.id, at: later[0]!.completed_at };
    }
  }
  return [...tracked.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

function controlStatus(checked: number, open: number, fixed: number): ControlStatus {
  if (open > 0) return "failing";
  if (fixed > 0) return "remediated";
  return checked > 0 ? "passed" : "no-evidence";
}

export function assembleEvidence(input: EvidenceInput): Evidence {
  const evaluations = [...input.evaluations].sort(byTime);
  const tracked = trackViolations(evaluations, input.violations);
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
