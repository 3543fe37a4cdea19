import { errors } from "@verdict/kit";
import type { EvaluationDeps } from "../deps.js";
import { getEvaluation } from "./getEvaluation.js";

export interface DeleteEvaluationCommand {
  organizationId: string;
  evaluationId: string;
}

/**
 * Deletes an evaluation, keeping a tombstone (id, organization, deleted_at) so a later read
 * answers "deleted" (410) rather than "never existed" (404). Violations go with the rest.
 */
export async function deleteEvaluation(deps: EvaluationDeps, cmd: DeleteEvaluationCommand): Promise<void> {
  const { organizationId, evaluationId } = cmd;
  await getEvaluation(deps, cmd);
  const deletedAt = deps.clock.now().toISOString();
  // The deleted_at: null condition makes a concurrent second delete answer 410, not succeed twice.
  if (!(await deps.repo.tombstone(organizationId, evaluationId, deletedAt)))
    throw errors.deleted("evaluation", evaluationId);
  // A queued evaluation's files go too, and its place in the queue; the worker skips deleted evaluations.
  await deps.jobs.drop(evaluationId);
  await deps.repo.releaseQueueRoom(organizationId, evaluationId);
  deps.logger.info({ organization_id: organizationId, evaluation_id: evaluationId }, "evaluation deleted");
}
