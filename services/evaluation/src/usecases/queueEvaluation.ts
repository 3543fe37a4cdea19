import { AppError } from "@verdict/kit";
import type { EvaluationDeps } from "../deps.js";
import type { EvaluationRecord } from "../repo.js";
import { requestedEvent } from "./events.js";
import type { FileToScan } from "./scan.js";
import { contentBytes } from "../domain/evaluation.js";

export interface QueueEvaluationCommand {
  /** The evaluation as created, not stored yet. */
  pending: EvaluationRecord;
  files: FileToScan[];
}

/** A large change, queued for a worker: answered pending. */
export async function queueEvaluation(deps: EvaluationDeps, cmd: QueueEvaluationCommand): Promise<EvaluationRecord> {
  const { files } = cmd;
  const organizationId = cmd.pending.organization_id;
  // Queued work waits for the scan threads: one organization may not queue faster than it is
  // scanned (its files held on disk and its scans ahead of everyone's queued work).
  const bytes = contentBytes(files);
  await checkQueueRoom(deps, organizationId, bytes);
  // Deferred: the files are persisted first (see JobFiles), then the evaluation, then the work
  // is announced with it (outbox). A crash between the writes leaves files without an
  // evaluation, which the recovery sweep drops.
  await deps.jobs.put(organizationId, cmd.pending.id, cmd.pending.created_at, files);
  const pending = { ...cmd.pending, queued_bytes: bytes };
  await deps.repo.insert(pending, [requestedEvent(deps, organizationId, pending.id)]);
  deps.logger.info(
    { organization_id: organizationId, evaluation_id: pending.id, files: files.length },
    "evaluation queued",
  );
  return pending;
}

/** Answers 429 when one more queued evaluation of `bytes` would pass the organization's caps. */
export async function checkQueueRoom(deps: EvaluationDeps, organizationId: string, bytes: number): Promise<void> {
  const { maxQueuedPerOrganization: maxCount, maxQueuedBytesPerOrganization: maxBytes } = deps.limits;
  const queued = await deps.repo.queued(organizationId);
  if (queued.count + 1 <= maxCount && (queued.bytes === 0 || queued.bytes + bytes <= maxBytes)) return;
  const byCount = queued.count + 1 > maxCount;
  throw new AppError(
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
