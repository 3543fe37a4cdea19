// The evidence projection: what the evaluation service announces, kept in this service's own
// collections (a service never reads another's). Idempotent per event: ids are natural keys.
import { createHash } from "node:crypto";
import type { EvaluationCompletedData, PolicyBypassedData, PolicyViolationData } from "@verdict/bus";
import type { ComplianceDeps } from "../deps.js";

export async function projectEvaluation(deps: ComplianceDeps, e: EvaluationCompletedData): Promise<void> {
  // A failed evaluation checked nothing: it is no evidence either way.
  if (e.status !== "completed" || e.passed === null) return;
  await deps.repo.recordEvaluation({
    id: e.evaluation_id,
    organization_id: e.organization_id,
    repository: e.repository,
    ref: e.ref,
    completed_at: e.completed_at,
    passed: e.passed,
    policies: e.policies ?? [],
    ...(e.scanned_paths ? { scanned_paths: e.scanned_paths } : {}),
  });
}

export async function projectViolation(deps: ComplianceDeps, e: PolicyViolationData): Promise<void> {
  const v = e.violation;
  await deps.repo.recordViolation({
    id: v.id,
    organization_id: e.organization_id,
    evaluation_id: e.evaluation_id,
    policy_id: v.policy_id,
    rule_id: v.rule_id,
    severity: v.severity,
    file: v.file,
    line: v.line,
    message: v.message,
    ...(v.fingerprint ? { fingerprint: v.fingerprint } : {}),
  });
}

export async function projectBypass(deps: ComplianceDeps, e: PolicyBypassedData): Promise<void> {
  const s = e.suppression;
  const id = createHash("sha256")
    .update([e.evaluation_id, s.policy_id, s.rule_id, s.file, String(s.line)].join("\u0000"))
    .digest("base64url")
    .slice(0, 24);
  await deps.repo.recordBypass({
    id: `byp_${id}`,
    organization_id: e.organization_id,
    evaluation_id: e.evaluation_id,
    repository: e.repository,
    ref: e.ref,
    bypassed_at: e.bypassed_at,
    policy_id: s.policy_id,
    rule_id: s.rule_id,
    file: s.file,
    line: s.line,
    reason: s.reason,
    ...(s.fingerprint ? { fingerprint: s.fingerprint } : {}),
  });
}
