// The evaluation service's configuration variables, declared once: its own process (bin.ts)
// and the all-in-one process read the same ones (docs/configuration.md).
import { z } from "zod";
import { boolVar } from "@verdict/kit";
import {
  addressVar,
  DEFAULT_ADDRESSES,
  DEFAULT_GRPC_PORTS,
  grpcServiceConfig,
  orgMaxEvaluationsInFlightVar,
  positiveInt,
  documentVariables,
} from "@verdict/runtime";
import { DEFAULT_LIMITS, type EvaluationServiceOptions } from "./main.js";

const threads = () => z.coerce.number().int().positive().max(256).optional();

export const evaluationConfig = z.object({
  /** Evaluations of at least this many files, or bytes of content, run asynchronously. */
  VERDICT_ASYNC_MIN_FILES: positiveInt(DEFAULT_LIMITS.asyncMinFiles),
  VERDICT_ASYNC_MIN_BYTES: positiveInt(DEFAULT_LIMITS.asyncMinBytes),
  /** Worker threads that scan files (and compile patterns); unset: one per core but one. */
  VERDICT_SCAN_WORKERS: threads(),
  VERDICT_SCAN_THREADS_PER_ORG: threads(),
  /** A synchronous evaluation fails with EVALUATION_TIMEOUT after this long on the scan threads. */
  VERDICT_SCAN_TIMEOUT_MS: positiveInt(DEFAULT_LIMITS.syncTimeoutMs),
  /** A synchronous evaluation is given up (503) after this long, waiting for a thread included. */
  VERDICT_SCAN_MAX_WAIT_MS: positiveInt(DEFAULT_LIMITS.syncMaxWaitMs),
  /** A queued evaluation fails (status failed) when its scan runs longer than this. */
  VERDICT_ASYNC_SCAN_TIMEOUT_MS: positiveInt(DEFAULT_LIMITS.asyncTimeoutMs),
  /** Synchronous evaluations of one organization running or waiting at once; more answer 429. */
  VERDICT_ORG_MAX_EVALUATIONS_IN_FLIGHT: orgMaxEvaluationsInFlightVar(),
  /** Queued evaluations of one organization, and the bytes of content they hold; more answer 429. */
  VERDICT_ORG_MAX_QUEUED_EVALUATIONS: positiveInt(DEFAULT_LIMITS.maxQueuedPerOrganization),
  VERDICT_ORG_MAX_QUEUED_BYTES: positiveInt(DEFAULT_LIMITS.maxQueuedBytesPerOrganization),
});

export type EvaluationConfig = z.infer<typeof evaluationConfig>;

/** The evaluation service as its own process (bin.ts). */
export const evaluationProcessConfig = grpcServiceConfig(DEFAULT_GRPC_PORTS.evaluation).extend({
  ...evaluationConfig.shape,
  VERDICT_POLICY_ADDRESS: addressVar(DEFAULT_ADDRESSES.policy),
  VERDICT_IDENTITY_ADDRESS: addressVar(DEFAULT_ADDRESSES.identity),
  /** false: serve the API only and leave queued evaluations to the worker instances. */
  VERDICT_EVALUATION_WORKER: boolVar(true),
});

/** The service options these variables set. */
export function evaluationOptions(
  c: EvaluationConfig,
): Pick<EvaluationServiceOptions, "limits" | "scanWorkers" | "scanThreadsPerOrganization"> {
  return {
    limits: {
      asyncMinFiles: c.VERDICT_ASYNC_MIN_FILES,
      asyncMinBytes: c.VERDICT_ASYNC_MIN_BYTES,
      syncTimeoutMs: c.VERDICT_SCAN_TIMEOUT_MS,
      syncMaxWaitMs: Math.max(c.VERDICT_SCAN_MAX_WAIT_MS, c.VERDICT_SCAN_TIMEOUT_MS),
      asyncTimeoutMs: c.VERDICT_ASYNC_SCAN_TIMEOUT_MS,
      maxInFlightPerOrganization: c.VERDICT_ORG_MAX_EVALUATIONS_IN_FLIGHT,
      maxQueuedPerOrganization: c.VERDICT_ORG_MAX_QUEUED_EVALUATIONS,
      maxQueuedBytesPerOrganization: c.VERDICT_ORG_MAX_QUEUED_BYTES,
    },
    ...(c.VERDICT_SCAN_WORKERS !== undefined ? { scanWorkers: c.VERDICT_SCAN_WORKERS } : {}),
    ...(c.VERDICT_SCAN_THREADS_PER_ORG !== undefined
      ? { scanThreadsPerOrganization: c.VERDICT_SCAN_THREADS_PER_ORG }
      : {}),
  };
}

documentVariables({
  VERDICT_ASYNC_MIN_FILES:
    "Evaluations with at least this many files are queued (202, `pending`) and finished by a worker",
  VERDICT_ASYNC_MIN_BYTES: "Evaluations with at least this many bytes of content are queued too",
  VERDICT_SCAN_WORKERS: {
    meaning:
      "Worker threads that match files against the policies (see [How an evaluation is checked](policies.md#how-an-evaluation-is-checked)); queued evaluations scan on as many again, at a low CPU priority",
    default: "cores − 1 (at least 1)",
  },
  VERDICT_SCAN_THREADS_PER_ORG: {
    meaning: "Scan threads one organization may hold at once",
    default: "`VERDICT_SCAN_WORKERS` − 1 (at least 1)",
  },
  VERDICT_SCAN_TIMEOUT_MS:
    "Deadline of a synchronous evaluation's scan, counting the time it runs on the scan threads, not the time it waits for one behind other organizations (then `422 EVALUATION_TIMEOUT`)",
  VERDICT_SCAN_MAX_WAIT_MS:
    "Overall bound of a synchronous evaluation's scan, waiting for a thread included (then `503`; retrying may help); at least `VERDICT_SCAN_TIMEOUT_MS`",
  VERDICT_ASYNC_SCAN_TIMEOUT_MS: "Deadline of a queued evaluation's scan (then `failed` with a `failure_reason`)",
  VERDICT_ORG_MAX_QUEUED_EVALUATIONS:
    'Queued (asynchronous) evaluations of one organization waiting or scanning at once; one more answers 429 with `details.window: "queued"` and `Retry-After: 5`',
  VERDICT_ORG_MAX_QUEUED_BYTES:
    "Bytes of content one organization's queued evaluations may hold (one evaluation is always let in when none is queued); one more that would pass it answers 429 like the above",
  VERDICT_EVALUATION_WORKER:
    "`false`: serve the API only and leave queued evaluations to worker instances (which share them through one consumer group)",
});
