import { errors, fieldChanges } from "@verdict/kit";
import { auditChangeEvent, type AuditContextInput } from "@verdict/outbox";
import type { EvaluationDeps } from "../deps.js";
import { getEvaluation } from "./getEvaluation.js";

export interface DeleteEvaluationCommand {
  organizationId: string;
  evaluationId: string;
  /** Who asks, for the audit event written with the change. */
  audit?: AuditContextInput | undefined;
}

/** What the audit log keeps of a deleted evaluation (the evaluation itself is gone). */
const AUDITED_FIELDS = ["status", "repository", "ref", "passed", "created_at"] as const;

/**
 * Deletes an evaluation, keeping a tombstone (id, organization, deleted_at) so a later read
 * answers "deleted" (410) rather than "never existed" (404). Violations go with the rest.
 */
export async function deleteEvaluation(deps: EvaluationDeps, cmd: DeleteEvaluationCommand): Promise<void> {
  const { organizationId, evaluationId } = cmd;
  const before = await getEvaluation(deps, cmd);
  const deletedAt = deps.clock.now().toISOString();
  const audit = auditChangeEvent(deps.outbox, deps.clock, "/evaluation", {
    organizationId,
    type: "evaluation.deleted",
    context: cmd.audit,
    targetType: "evaluation",
    targetId: evaluationId,
    changes: fieldChanges({ ...before }, null, AUDITED_FIELDS),
    data: { violations: before.summary.total_violations },
  });
  // The deleted_at: null condition makes a concurrent second delete answer 410, not succeed twice.
  if (!(await deps.repo.tombstone(organizationId, evaluationId, deletedAt, [audit])))
    throw errors.deleted("evaluation", evaluationId);
  // A queued evaluation's files go too, and its place in the queue; the worker skips deleted evaluations.
  await deps.jobs.drop(evaluationId);
  await deps.repo.releaseQueueRoom(organizationId, evaluationId);
  deps.logger.info({ organization_id: organizationId, evaluation_id: evaluationId }, "evaluation deleted");
}
