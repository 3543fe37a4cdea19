import type { PolicyDeps } from "../deps.js";

/** The part of `verdict.evaluation.completed` this service uses. */
export interface EvaluationCompletedData {
  organization_id: string;
  evaluation_id: string;
  repository: string;
  passed: boolean;
  completed_at: string;
}

/**
 * Keeps `last_evaluation` of connected repositories current. Events arrive at least once and
 * possibly out of order, so the timestamp only moves forward: a redelivered or late event
 * changes nothing. Each write is conditional, so concurrent events cannot move it back either.
 */
export async function recordEvaluation(deps: PolicyDeps, data: EvaluationCompletedData): Promise<void> {
  // An event without these fields cannot name a repository or a time: nothing to record.
  if (typeof data?.organization_id !== "string" || typeof data.repository !== "string" || typeof data.completed_at !== "string") {
    deps.logger.warn({ evaluation_id: data?.evaluation_id }, "ignoring malformed evaluation.completed event");
    return;
  }
  const repos = await deps.repo.repositories.find({ organization_id: data.organization_id, name: data.repository });
  for (const repo of repos) {
    const base = { id: repo.id, organization_id: data.organization_id };
    const set = { last_evaluation: data.completed_at };
    const first = await deps.repo.repositories.updateOne({ ...base, last_evaluation: null }, set);
    if (!first) await deps.repo.repositories.updateOne({ ...base, last_evaluation: { $lt: data.completed_at } }, set);
  }
}
