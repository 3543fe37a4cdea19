// The worker side of asynchronous evaluations: consumes evaluation.requested, scans the
// persisted files, and moves the evaluation from pending to completed (or failed) exactly once.
import { AppError } from "@verdict/kit";
import type { EvaluationDeps } from "../deps.js";
import { isTombstone, type EvaluationRecord } from "../repo.js";
import { completed, logFinished } from "./createEvaluation.js";
import { evaluationResultEvents } from "./events.js";
import { scanChange } from "./scan.js";

export async function processRequested(
  deps: EvaluationDeps,
  organizationId: string,
  evaluationId: string,
): Promise<void> {
  const doc = await deps.repo.findDoc(organizationId, evaluationId);
  // Delivered twice, already finished, or deleted while queued: nothing to do.
  if (!doc || isTombstone(doc) || doc.status !== "pending") {
    await deps.jobs.drop(evaluationId);
    return;
  }
  const files = await deps.jobs.load(evaluationId, doc.summary.total_files);
  if (!files) {
    await fail(deps, doc, "The evaluation's files were lost before it could run; submit the change again");
    return;
  }
  let result;
  try {
    result = await scanChange(deps, organizationId, doc.requested_policies, files, {
      timeoutMs: deps.limits.asyncTimeoutMs,
      budget: "thread",
    });
  } catch (err) {
    // A rule of the request that no longer holds (a named policy deleted meanwhile) or a scan past
    // its deadline (EVALUATION_TIMEOUT) cannot get better by retrying; anything else (a service
    // briefly down) is retried by the bus.
    if (
      err instanceof AppError &&
      (err.kind === "unprocessable" || err.kind === "validation" || err.kind === "not_found")
    ) {
      await fail(deps, doc, err.message);
      return;
    }
    throw err;
  }
  const done = completed(doc, result, deps.clock.now());
  await transition(deps, done);
}

/** Marks a pending evaluation failed with a reason people can act on. */
export async function fail(deps: EvaluationDeps, doc: EvaluationRecord, reason: string): Promise<void> {
  await transition(deps, {
    ...doc,
    status: "failed",
    completed_at: deps.clock.now().toISOString(),
    passed: null,
    failure_reason: reason,
  });
}

async function transition(deps: EvaluationDeps, next: EvaluationRecord): Promise<void> {
  const { id: _id, ...fields } = next;
  // The status condition makes the transition happen once, however often the work is delivered;
  // its events are written with it (outbox), so they are published once the transition happened.
  const filter = { id: next.id, organization_id: next.organization_id, status: "pending", deleted_at: null };
  const updated = await deps.outbox.update(deps.repo.evaluations, filter, fields, evaluationResultEvents(deps, next));
  await deps.jobs.drop(next.id);
  if (!updated) return;
  logFinished(deps, next);
}
