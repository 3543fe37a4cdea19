import { AppError } from "@verdict/kit";
import type { EvaluationDeps } from "../deps.js";
import { fitsQueue, type QueueCaps, type QueueUse } from "../domain/queueRoom.js";
import type { EvaluationRecord } from "../repo.js";
import { requestedEvent } from "./events.js";
import type { FileToScan } from "../domain/evaluation.js";
import { contentBytes } from "../domain/evaluation.js";

export interface QueueEvaluationCommand {
  /** The evaluation as created, not stored yet. */
  pending: EvaluationRecord;
  files: FileToScan[];
}

/**
 * A large change, queued for a worker: answered pending.
 *
 * Queued work waits for the scan threads: one organization may not queue faster than it is
 * scanned (its files held on disk and its scans ahead of everyone's queued work). The caps hold
 * under concurrency: the place is reserved first, in one compare-and-set on the organization's
 * queue ledger (repo.reserveQueueRoom), so two requests, or two instances sharing MongoDB, never
 * both take the last one; a refused request has written nothing. We chose a ledger over
 * insert-then-rank (store the evaluation, then count those ahead of it and withdraw if too many)
 * because ranking needs the files and the evaluation written before the answer is known, and ids
 * made on different instances do not sort in the order they were stored. The place is given back
 * when the evaluation leaves the queue (finishPending, deleteEvaluation); one left behind by a
 * crash stops counting on its own (see domain/queueRoom.ts).
 */
export async function queueEvaluation(deps: EvaluationDeps, cmd: QueueEvaluationCommand): Promise<EvaluationRecord> {
  const { files } = cmd;
  const organizationId = cmd.pending.organization_id;
  const evaluationId = cmd.pending.id;
  const bytes = contentBytes(files);
  const caps = queueCaps(deps);
  const room = await deps.repo.reserveQueueRoom(organizationId, evaluationId, bytes, caps, deps.clock.now());
  if (!room.reserved) throw queueFull(caps, room.use);
  const pending = { ...cmd.pending, queued_bytes: bytes };
  try {
    // The files are persisted first (see JobFiles), then the evaluation, then the work is
    // announced with it (outbox). A crash between the writes leaves files without an evaluation,
    // which the recovery sweep drops, and a reservation, which stops counting after its grace.
    await deps.jobs.put(organizationId, evaluationId, cmd.pending.created_at, files);
    await deps.repo.insert(pending, [requestedEvent(deps, { organizationId, evaluationId })]);
  } catch (err) {
    // Nothing half-queued stays: the files written so far go, and the place is given back (what
    // a failure here leaves, the recovery sweep and the reservation's grace take care of).
    const log = { organization_id: organizationId, evaluation_id: evaluationId };
    await deps.jobs
      .drop(evaluationId)
      .catch((e: unknown) => deps.logger.warn({ ...log, err: e }, "dropping files failed"));
    await deps.repo
      .releaseQueueRoom(organizationId, evaluationId)
      .catch((e: unknown) => deps.logger.warn({ ...log, err: e }, "releasing the queue place failed"));
    throw err;
  }
  deps.logger.info(
    { organization_id: organizationId, evaluation_id: evaluationId, files: files.length },
    "evaluation queued",
  );
  return pending;
}

/**
 * Answers 429 when one more queued evaluation of `bytes` would pass the organization's caps now;
 * reserves nothing (queueEvaluation reserves its place atomically).
 */
export async function checkQueueRoom(
  deps: EvaluationDeps,
  { organizationId, bytes }: { organizationId: string; bytes: number },
): Promise<void> {
  const caps = queueCaps(deps);
  const use = await deps.repo.queueUse(organizationId, deps.clock.now());
  if (!fitsQueue(use, bytes, caps)) throw queueFull(caps, use);
}

function queueCaps(deps: EvaluationDeps): QueueCaps {
  return { maxCount: deps.limits.maxQueuedPerOrganization, maxBytes: deps.limits.maxQueuedBytesPerOrganization };
}

/** The 429 of a full queue: by count when one more would pass it, else by bytes. */
function queueFull(caps: QueueCaps, queued: QueueUse): AppError {
  const { maxCount, maxBytes } = caps;
  const byCount = queued.count + 1 > maxCount;
  return new AppError(
    "rate_limited",
    "RATE_LIMIT_EXCEEDED",
    byCount
      ? `At most ${maxCount} evaluations of an organization wait in the queue at once; retry when one has finished`
      : `The organization's queued evaluations hold ${queued.bytes} bytes; with this one they would pass the ${maxBytes} bytes an organization may queue; retry when one has finished`,
    {
      limit: byCount ? maxCount : maxBytes,
      window: "queued",
      retry_after: QUEUE_RETRY_AFTER_S,
    },
  );
}

/** A queued evaluation of a large change takes seconds to scan: what a client should wait. */
const QUEUE_RETRY_AFTER_S = 5;
