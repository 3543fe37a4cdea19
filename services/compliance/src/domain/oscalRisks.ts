// The risks of a framework's OSCAL documents: one per finding (its state decides the risk's
// status and remediation lifecycle: findings.ts) and one per bypass.
import type { BypassFact, ControlEvidence, Evidence, FrameworkEvidence, TrackedViolation } from "./evidence.js";
import { milestoneOf } from "./milestones.js";
import { clean, prop, stableUuid, type Json } from "./oscalCommon.js";

/** How a finding of each state reads in a risk and a POA&M item. */
export const FINDING_RISK = {
  open: { risk: "open", lifecycle: "planned", remediation: "open" },
  fixed: { risk: "closed", lifecycle: "completed", remediation: "completed" },
  // Silenced in code, still there: a deviation awaiting review, never a closed risk.
  suppressed: { risk: "deviation-requested", lifecycle: "recommendation", remediation: "suppressed" },
  // A member's decisions, with their reasons: an approved deviation, or not a risk at all.
  accepted_risk: { risk: "deviation-approved", lifecycle: "recommendation", remediation: "accepted-risk" },
  false_positive: { risk: "closed", lifecycle: "recommendation", remediation: "false-positive" },
} as const;

export const until = (v: TrackedViolation) => (v.triage?.expires_at ? ` until ${v.triage.expires_at}` : "");

function violationStatement(c: ControlEvidence, v: TrackedViolation): { statement: string; remediation: string } {
  switch (v.status) {
    case "open":
      return {
        statement: `Open: the latest evaluation of ${v.repository} (${v.ref}) still reports this violation of control ${c.control.id}.`,
        remediation: `Remove the finding of policy ${v.policy_id} and evaluate the change again.`,
      };
    case "fixed":
      return {
        statement: `Fixed: evaluation ${v.fixed_by!.evaluation_id} of ${v.repository} (${v.ref}) no longer reports it.`,
        remediation: `Fixed by the change evaluated in ${v.fixed_by!.evaluation_id}.`,
      };
    case "suppressed":
      return {
        statement: `Suppressed, not fixed: evaluation ${v.suppressed_by!.evaluation_id} of ${v.repository} (${v.ref}) still finds it, silenced by an inline verdict-ignore comment (reason: ${v.suppressed_by!.reason || "none given"}); a violation of control ${c.control.id} that needs review.`,
        remediation: `Remove the finding of policy ${v.policy_id} and its verdict-ignore comment, then evaluate the change again.`,
      };
    case "accepted_risk":
      return {
        statement: `Accepted risk, not fixed: this violation of control ${c.control.id} in ${v.repository} was accepted on ${v.triage!.updated_at}${until(v)}. Reason: ${v.triage!.reason}`,
        remediation: `Accepted${until(v)}; it reopens when the acceptance expires.`,
      };
    case "false_positive":
      return {
        statement: `False positive, not fixed: this finding in ${v.repository} was marked no violation of control ${c.control.id} on ${v.triage!.updated_at}. Reason: ${v.triage!.reason}`,
        remediation: `None needed: marked a false positive on ${v.triage!.updated_at}.`,
      };
  }
}

/** The props every risk starts with: what kind, which control, and where. */
const whereProps = (
  kind: "violation" | "bypass",
  c: ControlEvidence,
  at: { policy_id: string; repository: string; file: string },
): Json[] => [
  prop("kind", kind),
  prop("control-id", c.control.id),
  prop("policy", at.policy_id),
  prop("repository", at.repository),
  prop("file", at.file),
];

export function violationRisk(
  evidence: Evidence,
  fw: FrameworkEvidence,
  c: ControlEvidence,
  v: TrackedViolation,
  observationOf: Map<string, string>,
): Json {
  const obs = [v.last_seen.evaluation_id, v.fixed_by?.evaluation_id].filter(
    (x): x is string => !!x && observationOf.has(x),
  );
  const where = `${v.file}:${v.line} in ${v.repository} (${v.ref})`;
  const { statement, remediation } = violationStatement(c, v);
  // OSCAL 1.1.2 places a plan's milestones as tasks of type "milestone" of the risk's response,
  // with their timing; the risk's deadline is the same date.
  const milestone = milestoneOf(v);
  const ids = [evidence.organization_id, fw.catalog.id, c.control.id, v.key];
  return {
    uuid: stableUuid("risk", ...ids),
    title: clean(`${v.policy_id}: ${v.message}`),
    description: clean(
      `Policy ${v.policy_id} (rule ${v.rule_id || "-"}, severity ${v.severity}) reported ${where}, first in evaluation ${v.first_seen.evaluation_id}, last in ${v.last_seen.evaluation_id}.`,
    ),
    statement: clean(statement),
    props: [
      ...whereProps("violation", c, v),
      prop("severity", v.severity),
      prop("finding-state", v.status),
      ...(v.fingerprint ? [prop("fingerprint", v.fingerprint)] : []),
    ],
    status: FINDING_RISK[v.status].risk,
    ...(milestone ? { deadline: milestone.date } : {}),
    remediations: [
      {
        uuid: stableUuid("remediation", ...ids),
        lifecycle: FINDING_RISK[v.status].lifecycle,
        title: clean(`Fix ${v.file} in ${v.repository}`),
        description: clean(remediation),
        ...(milestone
          ? {
              tasks: [
                {
                  uuid: stableUuid("milestone", ...ids),
                  type: "milestone",
                  title: milestone.title,
                  description: clean(milestone.description),
                  props: [prop("milestone-kind", milestone.kind)],
                  timing: { "on-date": { date: milestone.date } },
                },
              ],
            }
          : {}),
      },
    ],
    ...(obs.length > 0
      ? { "related-observations": obs.map((o) => ({ "observation-uuid": observationOf.get(o) })) }
      : {}),
  };
}

function bypassRisk(
  evidence: Evidence,
  fw: FrameworkEvidence,
  c: ControlEvidence,
  b: BypassFact,
  observationOf: Map<string, string>,
): Json {
  const obs = observationOf.get(b.evaluation_id);
  return {
    uuid: stableUuid("bypass", evidence.organization_id, fw.catalog.id, c.control.id, b.id),
    title: clean(`Bypass of ${b.policy_id} in ${b.file}`),
    description: clean(
      `An inline verdict-ignore comment silenced policy ${b.policy_id} (rule ${b.rule_id || "-"}) at ${b.file}:${b.line} in ${b.repository} (${b.ref}) on ${b.bypassed_at}. Reason given: ${b.reason || "none"}.`,
    ),
    statement: clean(
      `A finding mapped to control ${c.control.id} was suppressed in code rather than fixed; it needs review.`,
    ),
    props: [...whereProps("bypass", c, b)],
    status: "deviation-requested",
    ...(obs ? { "related-observations": [{ "observation-uuid": obs }] } : {}),
  };
}

/** Risks of a framework (violations and bypasses), deduplicated, with each control's risk uuids. */
export function risksOf(evidence: Evidence, fw: FrameworkEvidence, observationOf: Map<string, string>) {
  const risks: Json[] = [];
  const byControl = new Map<string, string[]>();
  for (const c of fw.controls) {
    const ids: string[] = [];
    for (const v of [...c.open, ...c.fixed, ...c.suppressed, ...c.triaged]) {
      const r = violationRisk(evidence, fw, c, v, observationOf);
      risks.push(r);
      ids.push(r.uuid as string);
    }
    for (const b of c.bypasses) {
      const r = bypassRisk(evidence, fw, c, b, observationOf);
      risks.push(r);
      ids.push(r.uuid as string);
    }
    byControl.set(c.control.id, ids);
  }
  return { risks, byControl };
}
