import { AppError, errors, newId } from "@verdict/kit";
import { checkEvaluationInput } from "../domain/evaluation.js";
import type { EvaluationDeps } from "../deps.js";
import type { EvaluationRecord } from "../repo.js";
import { evaluationResultEvents, requestedEvent } from "./events.js";
import { scanChange, type FileToScan, type ScanResult } from "./scan.js";

export interface CreateEvaluationCommand {
  organizationId: string;
  repository: string;
  ref: string;
  baseRef: string;
  files: FileToScan[];
  /** Policy ids to run; empty runs every enabled policy. */
  policies: string[];
  /** Aborted when the client is gone: a synchronous scan stops. */
  signal?: AbortSignal;
}

const EMPTY_SUMMARY = { total_files: 0, total_violations: 0, errors: 0, warnings: 0, suppressed: 0, skipped_files: 0 };

/** Small changes are checked inside the request; large ones are queued for a worker. */
export function isLarge(deps: EvaluationDeps, files: FileToScan[]): boolean {
  if (files.length >= deps.limits.asyncMinFiles) return true;
  let bytes = 0;
  for (const f of files) bytes += f.content.length;
  return bytes >= deps.limits.asyncMinBytes;
}

export async function createEvaluation(deps: EvaluationDeps, cmd: CreateEvaluationCommand): Promise<EvaluationRecord> {
  const problems = checkEvaluationInput({ repository: cmd.repository, files: cmd.files, policies: cmd.policies });
  if (problems.length) throw errors.validation(problems);
  const createdAt = deps.clock.now();
  const pending: EvaluationRecord = {
    id: newId("eval", createdAt.getTime()),
    organization_id: cmd.organizationId,
    status: "pending",
    repository: cmd.repository,
    ref: cmd.ref,
    base_ref: cmd.baseRef,
    created_at: createdAt.toISOString(),
    created_day: createdAt.toISOString().slice(0, 10),
    completed_at: null,
    passed: null,
    summary: { ...EMPTY_SUMMARY, total_files: cmd.files.length },
    violations: [],
    failure_reason: null,
    policies: [],
    requested_policies: cmd.policies,
    suppressions: [],
    deleted_at: null,
  };

  if (!isLarge(deps, cmd.files)) {
    // Each evaluation in flight holds its files in memory and may hold a scan thread: one
    // organization gets a bounded share, whatever its rate limit lets it send.
    const max = deps.limits.maxInFlightPerOrganization;
    if (deps.scanner.inFlight(cmd.organizationId) >= max) {
      throw new AppError(
        "rate_limited",
        "RATE_LIMIT_EXCEEDED",
        `At most ${max} evaluations of an organization run at once; retry when one has finished`,
        {
          limit: max,
          window: "concurrent",
          retry_after: 1,
        },
      );
    }
    const result = await scanChange(deps, cmd.organizationId, cmd.policies, cmd.files, {
      timeoutMs: deps.limits.syncTimeoutMs,
      maxWaitMs: deps.limits.syncMaxWaitMs,
      signal: cmd.signal,
    });
    const evaluation = completed(pending, result, deps.clock.now());
    // The result and its events in one write: a crash cannot keep one without the other.
    await deps.outbox.insert(deps.repo.evaluations, evaluation, evaluationResultEvents(deps, evaluation));
    logFinished(deps, evaluation);
    return evaluation;
  }

  // Queued work waits for the scan threads: one organization may not queue faster than it is
  // scanned (its files held on disk and its scans ahead of everyone's queued work).
  let bytes = 0;
  for (const f of cmd.files) bytes += f.content.length;
  await checkQueueRoom(deps, cmd.organizationId, bytes);
  // Deferred: the files are persisted first (see JobFiles), then the evaluation, then the work
  // is announced with it (outbox). A crash between the writes leaves files without an
  // evaluation, which the recovery sweep drops.
  await deps.jobs.put(cmd.organizationId, pending.id, pending.created_at, cmd.files);
  pending.queued_bytes = bytes;
  await deps.outbox.insert(deps.repo.evaluations, pending, [requestedEvent(deps, cmd.organizationId, pending.id)]);
  deps.logger.info(
    { organization_id: cmd.organizationId, evaluation_id: pending.id, files: cmd.files.length },
    "evaluation queued",
  );
  return pending;
}

/** Answers 429 when one more queued evaluation of `bytes` would pass the organization's caps. */
async function checkQueueRoom(deps: EvaluationDeps, organizationId: string, bytes: number): Promise<void> {
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

/** The completed form of an evaluation, from its scan result. */
export function completed(base: EvaluationRecord, result: ScanResult, at: Date): EvaluationRecord {
  return {
    ...base,
    status: "completed",
    completed_at: at.toISOString(),
    passed: result.passed,
    summary: result.summary,
    violations: result.kept.map((finding) => ({ id: newId("viol", at.getTime()), ...finding })),
    policies: result.policies,
    suppressions: result.suppressions,
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
