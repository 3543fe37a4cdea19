import type { EvaluationDeps } from "../deps.js";
import { isTombstone } from "../repo.js";
import { failEvaluation } from "./failEvaluation.js";

export interface FailUndeliverableCommand {
  organizationId: string;
  evaluationId: string;
  /** Why the work kept failing (the bus's last error). */
  error: string;
}

/** Queued work that kept failing (a service down past every retry) must not stay pending forever. */
export async function failUndeliverable(deps: EvaluationDeps, cmd: FailUndeliverableCommand): Promise<void> {
  const doc = await deps.repo.findDoc(cmd.organizationId, cmd.evaluationId);
  if (doc && !isTombstone(doc) && doc.status === "pending")
    await failEvaluation(deps, { evaluation: doc, reason: `The evaluation could not be run: ${cmd.error}` });
}
