// The worker side of asynchronous evaluations: consumes evaluation.requested, scans the
// persisted files, and moves the evaluation from pending to completed (or failed) exactly once.
import { AppError } from "@verdict/kit";
import type { EvaluationDeps } from "../deps.js";
import { isTombstone } from "../repo.js";
import { failEvaluation } from "./failEvaluation.js";
import { completed, finishPending } from "./finishEvaluation.js";
import { scanChange } from "./scan.js";

export interface ProcessRequestedCommand {
  organizationId: string;
  evaluationId: string;
}

export async function processRequested(deps: EvaluationDeps, cmd: ProcessRequestedCommand): Promise<void> {
  const { organizationId, evaluationId } = cmd;
  const doc = await deps.repo.findDoc(organizationId, evaluationId);
  // Delivered twice, already finished, or deleted while queued: nothing to do.
  if (!doc || isTombstone(doc) || doc.status !== "pending") {
    await deps.jobs.drop(evaluationId);
    await deps.repo.releaseQueueRoom(organizationId, evaluationId);
    return;
  }
  const files = await deps.jobs.load(evaluationId, doc.summary.total_files);
  if (!files) {
    await failEvaluation(deps, {
      evaluation: doc,
      reason: "The evaluation's files were lost before it could run; submit the change again",
    });
    return;
  }
  let result;
  try {
    result = await scanChange(deps, {
      organizationId: organizationId,
      policies: doc.requested_policies,
      files: files,
      limits: {
        timeoutMs: deps.limits.asyncTimeoutMs,
        budget: "thread",
        queued: true,
      },
    });
  } catch (err) {
    // A rule of the request that no longer holds (a named policy deleted meanwhile) or a scan past
    // its deadline (EVALUATION_TIMEOUT) cannot get better by retrying; anything else (a service
    // briefly down) is retried by the bus.
    if (
      err instanceof AppError &&
      (err.kind === "unprocessable" || err.kind === "validation" || err.kind === "not_found")
    ) {
      await failEvaluation(deps, { evaluation: doc, reason: err.message });
      return;
    }
    throw err;
  }
  await finishPending(deps, { next: completed(doc, result, deps.clock.now()) });
}
