// The core every evaluation runs, synchronous or deferred: resolve the policies, then scan the
// files on a worker thread of the scan pool (the request thread never matches patterns), within
// the evaluation's deadline.
import { AppError, errors } from "@verdict/kit";
import { PoolJobError } from "@verdict/runtime";
import {
  MAX_VIOLATIONS,
  mergeOutcomes,
  packSlice,
  sliceFiles,
  type FileToScan,
  type Outcome,
} from "../domain/evaluation.js";
import type { EvaluationDeps, OrgSettings } from "../deps.js";
import type { CachedEngine, PolicySet } from "../engineCache.js";
import { sharePolicies } from "../scanJob.js";
import { verifyCredentials } from "./verifyCredentials.js";

export interface ScanResult extends Outcome {
  /** Ids of the policies that ran. */
  policies: string[];
}

export interface ScanLimits {
  /**
   * The scan fails (EVALUATION_TIMEOUT) when it has spent this long on the scan threads: the
   * time it waits for a thread behind other organizations' scans is not its patterns' cost and
   * does not count (with budget "wall", the deadline counts from when it was asked for instead).
   */
  timeoutMs: number;
  budget?: "wall" | "thread";
  /**
   * An overall bound on a scan that a caller waits for, waiting included: past it the scan is
   * given up with 503 (the threads were busy; retrying may help), so nothing waits forever.
   */
  maxWaitMs?: number;
  /** Aborted when the caller is gone (a synchronous request whose client disconnected). */
  signal?: AbortSignal;
  /** A queued evaluation's scan: on the queued scanner's threads (background work). */
  queued?: boolean;
}

/**
 * The scan threads take an evaluation's files in slices of at most this much content (a larger
 * file alone), one after the other. Between two slices the fair queue hands the thread to the
 * next organization in turn, so a 31 MiB evaluation holds a thread for one slice at a time, not
 * for its whole scan: with one scan thread, another organization waits for one slice at most.
 */
export const SCAN_SLICE_BYTES = 512 * 1024;

export interface ScanChangeCommand {
  organizationId: string;
  /** Policy ids the request named; empty runs every enabled policy. */
  policies: string[];
  files: FileToScan[];
  limits: ScanLimits;
  /** The organization's settings when the caller read them already. */
  settings?: OrgSettings | undefined;
}

export async function scanChange(deps: EvaluationDeps, cmd: ScanChangeCommand): Promise<ScanResult> {
  const { organizationId, policies: requested, files, limits } = cmd;
  // Errors from the policy service (unknown policy ids: 422 naming `policies[i]`) reach the
  // caller unchanged.
  const [{ engine: policies, policyIds, version }, settings] = await Promise.all([
    policiesFor(deps, organizationId, requested),
    cmd.settings ?? deps.orgSettings.get(organizationId),
  ]);
  const onThreads = limits.budget !== "wall";
  const pool = limits.queued ? (deps.queuedScanner ?? deps.scanner) : deps.scanner;
  const deadline = Date.now() + limits.timeoutMs;
  let spent = 0;
  // The overall bound aborts the scan like a client that went away, with its own answer.
  const waited = new AbortController();
  const waitTimer = limits.maxWaitMs !== undefined ? setTimeout(() => waited.abort(), limits.maxWaitMs) : undefined;
  const signal = waitTimer
    ? limits.signal
      ? AbortSignal.any([limits.signal, waited.signal])
      : waited.signal
    : limits.signal;
  try {
    const outcomes: Outcome[] = [];
    let room = MAX_VIOLATIONS;
    for (const slice of sliceFiles(files, SCAN_SLICE_BYTES)) {
      // The evaluation's deadline, not each slice's: the slices share what is left of it.
      const timeoutMs = onThreads ? limits.timeoutMs - spent : deadline - Date.now();
      if (timeoutMs <= 0) throw new PoolJobError("deadline", `did not finish within ${limits.timeoutMs} ms`);
      let started = 0;
      const packed = packSlice(slice);
      const outcome = await pool.run(
        organizationId,
        {
          organizationId,
          version,
          policies: sharePolicies(policies),
          files: packed.files,
          allowSuppression: settings.allowInlineSuppression,
          room,
        },
        {
          timeoutMs,
          transferList: [packed.buffer],
          signal,
          timeoutFrom: onThreads ? "started" : "submitted",
          onStart: () => (started = Date.now()),
        },
      );
      spent += Date.now() - started;
      room = Math.max(0, room - outcome.kept.length);
      outcomes.push(outcome);
    }
    // Recent successful policy sets are compiled by scan threads before they take jobs.
    deps.warm?.record(organizationId, version, policies);
    const outcome = mergeOutcomes(outcomes);
    // Outside the scan's deadline: each provider call has its own short one.
    const kept = await verifyCredentials(deps, { organizationId, settings, files, violations: outcome.kept });
    return { ...outcome, kept, policies: policyIds };
  } catch (err) {
    if (waited.signal.aborted && !limits.signal?.aborted)
      throw errors.unavailable(
        `The scan threads were busy: the evaluation did not finish within ${limits.maxWaitMs} ms, waiting included; try again`,
      );
    throw scanError(err, limits.timeoutMs);
  } finally {
    clearTimeout(waitTimer);
  }
}

/** The error a failed scan job becomes. */
function scanError(err: unknown, timeoutMs: number): unknown {
  if (!(err instanceof PoolJobError)) return err;
  if (err.reason === "deadline") {
    // Deterministic for this change and these policies: retrying cannot help, so not a 503.
    return new AppError(
      "unprocessable",
      "EVALUATION_TIMEOUT",
      `The evaluation did not finish within its deadline of ${timeoutMs} ms: the policies' patterns are too costly for files this large. Narrow the policies or the files, or fix the custom patterns that run slowly`,
      { timeout_ms: timeoutMs },
    );
  }
  if (err.reason === "cancelled") return errors.unavailable("The evaluation was cancelled: the client went away");
  return errors.unavailable("The evaluation service is shutting down; try again");
}

/**
 * The policies the request resolves to now. The policy service is told the version this request
 * resolved to last time; while that is still current it answers "unchanged" without the
 * patterns, and the cached set runs (compiled, in the worker threads' own caches).
 */
async function policiesFor(
  deps: EvaluationDeps,
  organizationId: string,
  requested: string[],
): Promise<CachedEngine<PolicySet>> {
  const known = deps.engines.lastVersion(organizationId, requested);
  const resolve = (knownVersion?: string) =>
    deps.policy.resolvePolicies({
      organization_id: organizationId,
      policy_ids: requested,
      known_version: knownVersion,
    });
  let res = await resolve(known);
  let cached = res.unchanged ? deps.engines.peek(res.version) : undefined;
  // Evicted since (or forgotten after a policy.changed event): ask for the policies themselves.
  if (res.unchanged && !cached) res = await resolve();
  cached ??= deps.engines.get(res.version, res.policies);
  deps.engines.remember(organizationId, requested, res.version);
  return cached;
}
