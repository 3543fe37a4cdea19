// Events the evaluation service publishes. Webhooks, compliance evidence and repository
// "last evaluated" times are fed from these.
import { TOPICS } from "@verdict/bus";
import type { SuppressedFinding } from "../domain/engine.js";
import type { Summary } from "../domain/evaluation.js";
import type { EvaluationDeps } from "../deps.js";
import type { EvaluationRecord, Violation } from "../repo.js";

export interface EvaluationCompletedData {
  organization_id: string;
  evaluation_id: string;
  repository: string;
  ref: string;
  status: "completed" | "failed";
  passed: boolean | null;
  completed_at: string;
  summary: Summary;
  /** The policies that ran (compliance evidence: which controls this evaluation checked). */
  policies: string[];
  failure_reason?: string;
}

export interface PolicyViolationData {
  organization_id: string;
  evaluation_id: string;
  repository: string;
  /** Already redacted, as stored. */
  violation: Violation;
}

export interface PolicyBypassedData {
  organization_id: string;
  evaluation_id: string;
  repository: string;
  ref: string;
  bypassed_at: string;
  suppression: SuppressedFinding;
}

export interface EvaluationRequestedData {
  organization_id: string;
  evaluation_id: string;
}

const SOURCE = "/evaluation";

export async function publishEvaluationResults(deps: EvaluationDeps, evaluation: EvaluationRecord): Promise<void> {
  const base = { organization_id: evaluation.organization_id, evaluation_id: evaluation.id, repository: evaluation.repository };
  for (const violation of evaluation.violations) {
    const data: PolicyViolationData = { ...base, violation };
    await deps.bus.publish(TOPICS.policyViolation, { source: SOURCE, subject: violation.id, data });
  }
  for (const suppression of evaluation.suppressions) {
    const data: PolicyBypassedData = { ...base, ref: evaluation.ref, bypassed_at: evaluation.completed_at ?? evaluation.created_at, suppression };
    await deps.bus.publish(TOPICS.policyBypassed, { source: SOURCE, subject: evaluation.id, data });
  }
  const completed: EvaluationCompletedData = {
    ...base,
    ref: evaluation.ref,
    status: evaluation.status === "failed" ? "failed" : "completed",
    passed: evaluation.passed,
    completed_at: evaluation.completed_at ?? "",
    summary: evaluation.summary,
    policies: evaluation.policies,
    ...(evaluation.failure_reason ? { failure_reason: evaluation.failure_reason } : {}),
  };
  await deps.bus.publish(TOPICS.evaluationCompleted, { source: SOURCE, subject: evaluation.id, data: completed });
}

export async function publishRequested(deps: EvaluationDeps, organizationId: string, evaluationId: string): Promise<void> {
  const data: EvaluationRequestedData = { organization_id: organizationId, evaluation_id: evaluationId };
  await deps.bus.publish(TOPICS.evaluationRequested, { source: SOURCE, subject: evaluationId, data });
}
