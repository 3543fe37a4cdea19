// The evaluation service's configuration variables, declared once: its own process (bin.ts)
// and the all-in-one process read the same ones (README, Configuration).
import { z } from "zod";
import { boolVar } from "@verdict/kit";
import {
  addressVar,
  DEFAULT_ADDRESSES,
  DEFAULT_GRPC_PORTS,
  grpcServiceConfig,
  orgMaxEvaluationsInFlightVar,
  positiveInt,
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
  /** A synchronous evaluation fails with EVALUATION_TIMEOUT after this long. */
  VERDICT_SCAN_TIMEOUT_MS: positiveInt(DEFAULT_LIMITS.syncTimeoutMs),
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
