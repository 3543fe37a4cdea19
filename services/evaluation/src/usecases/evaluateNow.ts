import { AppError } from "@verdict/kit";
import type { EvaluationDeps, OrgSettings } from "../deps.js";
import type { EvaluationRecord } from "../repo.js";
import { evaluationResultEvents } from "./events.js";
import { completed, logFinished } from "./finishEvaluation.js";
import type { FileToScan } from "../domain/evaluation.js";
import { scanChange } from "./scan.js";

export interface EvaluateNowCommand {
  /** The evaluation as created, not stored yet. */
  pending: EvaluationRecord;
  files: FileToScan[];
  /** Aborted when the client is gone: the scan stops. */
  signal?: AbortSignal;
  /** The organization's settings when already read (else the scan reads them). */
  settings?: OrgSettings;
}

/** A small change, checked inside the request: stored once finished, with its events. */
export async function evaluateNow(deps: EvaluationDeps, cmd: EvaluateNowCommand): Promise<EvaluationRecord> {
  const { pending } = cmd;
  const organizationId = pending.organization_id;
  // Each evaluation in flight holds its files in memory and may hold a scan thread: one
  // organization gets a bounded share, whatever its rate limit lets it send.
  const max = deps.limits.maxInFlightPerOrganization;
  if (deps.scanner.inFlight(organizationId) >= max) {
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
  const result = await scanChange(deps, {
    organizationId: organizationId,
    policies: pending.requested_policies,
    files: cmd.files,
    settings: cmd.settings,
    limits: {
      timeoutMs: deps.limits.syncTimeoutMs,
      maxWaitMs: deps.limits.syncMaxWaitMs,
      signal: cmd.signal,
    },
  });
  const evaluation = completed(pending, result, deps.clock.now());
  // The result and its events in one write: a crash cannot keep one without the other.
  await deps.repo.insert(evaluation, evaluationResultEvents(deps, evaluation));
  logFinished(deps, evaluation);
  return evaluation;
}
