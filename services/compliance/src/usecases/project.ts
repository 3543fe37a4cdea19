// The evidence projection: what the evaluation service announces, kept in this service's own
// collections (a service never reads another's). Idempotent per event: ids are natural keys.
import { createHash } from "node:crypto";
import type { ComplianceDeps } from "../deps.js";

/** The evaluation service's event payloads, as far as compliance reads them. */
export interface EvaluationCompletedData {
  organization_id: string;
  evaluation_id: string;
  repository: string;
  ref: string;
  status: "completed" | "failed";
  passed: boolean | null;
  completed_at: string;
  /** Policies that ran. */
  policies?: string[];
  /** Files the engine read (absent from evaluation services before it was sent). */
  scanned_paths?: string[];
}

export interface PolicyViolationData {
  organization_id: string;
  evaluation_id: string;
  repository: string;
  violation: {
    id: string;
    policy_id: string;
    rule_id: string;
    severity: string;
    file: string;
    line: number;
    message: string;
  };
}

export interface PolicyBypassedData {
  organization_id: string;
  evaluation_id: string;
  repository: string;
  ref: string;
  bypassed_at: string;
  suppression: { policy_id: string; rule_id: string; file: string; line: number; reason: string };
}

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
  });
}
