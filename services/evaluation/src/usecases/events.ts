// Events the evaluation service publishes. Webhooks, compliance evidence and repository
// "last evaluated" times are fed from these.
import { TOPICS } from "@verdict/bus";
import type { PendingEvent } from "@verdict/outbox";
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
  /** Paths of the files the engine read (compliance evidence: which files the policies could apply to). */
  scanned_paths: string[];
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
