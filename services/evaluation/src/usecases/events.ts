// Events the evaluation service publishes. Webhooks, compliance evidence and repository
// "last evaluated" times are fed from these; the payload types are the bus's (payloads.ts).
import {
  TOPICS,
  type EvaluationCompletedData,
  type EvaluationRequestedData,
  type PolicyBypassedData,
  type PolicyViolationData,
} from "@verdict/bus";
import type { PendingEvent } from "@verdict/outbox";
import type { EvaluationDeps } from "../deps.js";
import type { EvaluationRecord } from "../repo.js";

export const EVENT_SOURCE = "/evaluation";

/**
 * The events a finished evaluation implies, written with it through the outbox: one
 * `policy.violation` per violation, one `policy.bypassed` per suppression, `evaluation.completed`.
 */
export function evaluationResultEvents(deps: EvaluationDeps, evaluation: EvaluationRecord): PendingEvent[] {
  const base = {
    organization_id: evaluation.organization_id,
    evaluation_id: evaluation.id,
    repository: evaluation.repository,
  };
  const events: PendingEvent[] = [];
  for (const violation of evaluation.violations) {
    const data: PolicyViolationData = { ...base, violation };
    events.push(deps.outbox.event(TOPICS.policyViolation, { source: EVENT_SOURCE, subject: violation.id, data }));
  }
  for (const suppression of evaluation.suppressions) {
    const data: PolicyBypassedData = {
      ...base,
      ref: evaluation.ref,
      bypassed_at: evaluation.completed_at ?? evaluation.created_at,
      suppression,
    };
    events.push(deps.outbox.event(TOPICS.policyBypassed, { source: EVENT_SOURCE, subject: evaluation.id, data }));
  }
  const completed: EvaluationCompletedData = {
    ...base,
    ref: evaluation.ref,
    status: evaluation.status === "failed" ? "failed" : "completed",
    passed: evaluation.passed,
    completed_at: evaluation.completed_at ?? "",
    summary: evaluation.summary,
    policies: evaluation.policies,
    scanned_paths: evaluation.scanned_paths ?? [],
    ...(evaluation.failure_reason ? { failure_reason: evaluation.failure_reason } : {}),
  };
  events.push(
    deps.outbox.event(TOPICS.evaluationCompleted, { source: EVENT_SOURCE, subject: evaluation.id, data: completed }),
  );
  return events;
}

/** `evaluation.requested`: written with the pending evaluation, taken by one worker. */
export function requestedEvent(
  deps: EvaluationDeps,
  evaluation: { organizationId: string; evaluationId: string },
): PendingEvent {
  const { organizationId, evaluationId } = evaluation;
  const data: EvaluationRequestedData = { organization_id: organizationId, evaluation_id: evaluationId };
  return deps.outbox.event(TOPICS.evaluationRequested, { source: EVENT_SOURCE, subject: evaluationId, data });
}
