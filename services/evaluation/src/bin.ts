#!/usr/bin/env node
// The evaluation service as its own process (distributed mode). Run several: they share the
// queued work (one consumer group on verdict.evaluation.requested).
import { z } from "zod";
import { boolVar } from "@verdict/kit";
import { addressVar, DEFAULT_ADDRESSES, DEFAULT_GRPC_PORTS, grpcServiceConfig, runProcess } from "@verdict/runtime";
import { DEFAULT_LIMITS, startEvaluationService } from "./main.js";

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const schema = grpcServiceConfig(DEFAULT_GRPC_PORTS.evaluation).extend({
  VERDICT_POLICY_ADDRESS: addressVar(DEFAULT_ADDRESSES.policy),
  VERDICT_IDENTITY_ADDRESS: addressVar(DEFAULT_ADDRESSES.identity),
  VERDICT_ASYNC_MIN_FILES: positiveInt(DEFAULT_LIMITS.asyncMinFiles),
  VERDICT_ASYNC_MIN_BYTES: positiveInt(DEFAULT_LIMITS.asyncMinBytes),
  VERDICT_SCAN_WORKERS: z.coerce.number().int().positive().max(256).optional(),
  VERDICT_SCAN_THREADS_PER_ORG: z.coerce.number().int().positive().max(256).optional(),
  VERDICT_SCAN_TIMEOUT_MS: positiveInt(DEFAULT_LIMITS.syncTimeoutMs),
  VERDICT_ASYNC_SCAN_TIMEOUT_MS: positiveInt(DEFAULT_LIMITS.asyncTimeoutMs),
  VERDICT_ORG_MAX_EVALUATIONS_IN_FLIGHT: positiveInt(DEFAULT_LIMITS.maxInFlightPerOrganization),
  /** false: serve the API only and leave queued evaluations to the worker instances. */
  VERDICT_EVALUATION_WORKER: boolVar(true),
});

runProcess("evaluation", schema, async ({ config, logger, store, bus }) => {
  const opened = await store();
  const service = await startEvaluationService({
    store: opened,
    bus,
    logger,
    host: config.VERDICT_GRPC_HOST,
    port: config.VERDICT_GRPC_PORT,
    policyAddress: config.VERDICT_POLICY_ADDRESS,
    identityAddress: config.VERDICT_IDENTITY_ADDRESS,
    limits: {
      asyncMinFiles: config.VERDICT_ASYNC_MIN_FILES,
      asyncMinBytes: config.VERDICT_ASYNC_MIN_BYTES,
      syncTimeoutMs: config.VERDICT_SCAN_TIMEOUT_MS,
      asyncTimeoutMs: config.VERDICT_ASYNC_SCAN_TIMEOUT_MS,
      maxInFlightPerOrganization: config.VERDICT_ORG_MAX_EVALUATIONS_IN_FLIGHT,
    },
    scanWorkers: config.VERDICT_SCAN_WORKERS,
    scanThreadsPerOrganization: config.VERDICT_SCAN_THREADS_PER_ORG,
    worker: config.VERDICT_EVALUATION_WORKER,
  });
  return { ready: { grpc_port: service.grpc.port }, stop: () => service.stop() };
});
