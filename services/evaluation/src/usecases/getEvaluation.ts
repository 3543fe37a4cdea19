import { errors } from "@verdict/kit";
import type { EvaluationDeps } from "../deps.js";
import { isTombstone, type EvaluationRecord } from "../repo.js";

export interface GetEvaluationCommand {
  organizationId: string;
  evaluationId: string;
}

/** An evaluation of the organization: 404 when it never existed, 410 once deleted. */
export async function getEvaluation(deps: EvaluationDeps, cmd: GetEvaluationCommand): Promise<EvaluationRecord> {
  const doc = await deps.repo.findDoc(cmd.organizationId, cmd.evaluationId);
  if (!doc) throw errors.notFound("evaluation", cmd.evaluationId);
  if (isTombstone(doc)) throw errors.deleted("evaluation", cmd.evaluationId);
  return doc;
}
