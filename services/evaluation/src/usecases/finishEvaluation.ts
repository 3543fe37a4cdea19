// The completion every evaluation goes through, inside the request or on a worker: its result
// becomes the completed form, and the finish is logged once.
import { newId } from "@verdict/kit";
import type { EvaluationDeps } from "../deps.js";
import { bypassOutcome } from "../domain/bypass.js";
import type { EvaluationRecord } from "../repo.js";
import { evaluationResultEvents } from "./events.js";
import type { ScanResult } from "./scan.js";

/** The completed form of an evaluation, from its scan result (its findings bypassed when the request said so). */
export function completed(base: EvaluationRecord, scanned: ScanResult, at: Date): EvaluationRecord {
  const result = base.bypass_reason ? bypassOutcome(scanned, base.bypass_reason) : scanned;
  return {
    ...base,
    status: "completed",
    completed_at: at.toISOString(),
    passed: result.passed,
    summary: result.summary,
    violations: result.kept.map((finding) => ({ id: newId("viol", at.getTime()), ...finding })),
    policies: result.policies,
    suppressions: result.suppressions,
    scanned_paths: result.scanned_paths,
  };
}

export function logFinished(deps: EvaluationDeps, evaluation: EvaluationRecord): void {
  deps.logger.info(
    {
      organization_id: evaluation.organization_id,
      evaluation_id: evaluation.id,
      repository: evaluation.repository,
      status: evaluation.status,
      passed: evaluation.passed,
      ...evaluation.summary,
    },
    `evaluation ${evaluation.status}`,
  );
}

export interface FinishPendingCommand {
  /** The finished form (completed or failed) of an evaluation stored as pending. */
  next: EvaluationRecord;
}

/**
 * Moves a queued evaluation from pending to its finished form exactly once, however often the
 * work is delivered; its events are written with it (outbox), so they are published once the
 * transition happened. Its queued files go, and its place in the organization's queue is given
 * back, in any case.
 */
export async function finishPending(deps: EvaluationDeps, cmd: FinishPendingCommand): Promise<void> {
  const { next } = cmd;
  const updated = await deps.repo.finishPending(next, evaluationResultEvents(deps, next));
  await deps.jobs.drop(next.id);
  await deps.repo.releaseQueueRoom(next.organization_id, next.id);
  if (updated) logFinished(deps, next);
}
