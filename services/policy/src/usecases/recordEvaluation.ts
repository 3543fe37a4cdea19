import type { EvaluationCompletedData } from "@verdict/bus";
import type { PolicyDeps } from "../deps.js";

/**
 * Keeps `last_evaluation` of connected repositories current. Events arrive at least once and
 * possibly out of order, so the timestamp only moves forward: a redelivered or late event
 * changes nothing. Each write is conditional, so concurrent events cannot move it back either.
 */
export async function recordEvaluation(deps: PolicyDeps, data: EvaluationCompletedData): Promise<void> {
  // An event without these fields cannot name a repository or a time: nothing to record.
  if (
    typeof data?.organization_id !== "string" ||
    typeof data.repository !== "string" ||
    typeof data.completed_at !== "string"
  ) {
    deps.logger.warn({ evaluation_id: data?.evaluation_id }, "ignoring malformed evaluation.completed event");
    return;
  }
  await deps.repo.recordLastEvaluation(data.organization_id, data.repository, data.completed_at);
}
