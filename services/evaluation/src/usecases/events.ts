// Events the evaluation service publishes. Webhooks, compliance evidence and repository
// "last evaluated" times are fed from these.
import { TOPICS } from "@verdict/bus";
import type { Summary } from "../domain/evaluation.js";
import type { EvaluationDeps } from "../deps.js";
import type { EvaluationRecord, Violation } from "../repo.js";

export interface EvaluationCompletedData {
  organization_id: string;
  evaluation_id: string;
  repository: string;
  ref: string;
  passed: boolean;
  completed_at: string;
  summary: Summary;
}

export interface PolicyViolationData {
  organization_id: string;
  evaluation_id: string;
  repository: string;
  /** Already redacted, as stored. */
  violation: Violation;
}

const SOURCE = "/evaluation";

export async function publishEvaluationResults(deps: EvaluationDeps, evaluation: EvaluationRecord): Promise<void> {
  for (const violation of evaluation.violations) {
    const data: PolicyViolationData = { organization_id: evaluation.organization_id, evaluation_id: evaluation.id, repository: evaluation.repository, violation };
    await deps.bus.publish(TOPICS.policyViolation, { source: SOURCE, subject: violation.id, data });
  }
  const completed: EvaluationCompletedData = {
    organization_id: evaluation.organization_id,
    evaluation_id: evaluation.id,
    repository: evaluation.repository,
    ref: evaluation.ref,
    passed: evaluation.passed ?? false,
    completed_at: evaluation.completed_at ?? "",
    summary: evaluation.summary,
  };
  await deps.bus.publish(TOPICS.evaluationCompleted, { source: SOURCE, subject: evaluation.id, data: completed });
}
