#!/usr/bin/env node
// The evaluation service as its own process (distributed mode). Run several: they share the
// queued work (one consumer group on verdict.evaluation.requested).
import { runProcess } from "@verdict/runtime";
import { evaluationOptions, evaluationProcessConfig } from "./config.js";
import { startEvaluationService } from "./main.js";

runProcess("evaluation", evaluationProcessConfig, async ({ config, logger, store, bus }) => {
  const opened = await store();
  const service = await startEvaluationService({
    store: opened,
    bus,
    logger,
    host: config.VERDICT_GRPC_HOST,
    port: config.VERDICT_GRPC_PORT,
    policyAddress: config.VERDICT_POLICY_ADDRESS,
    identityAddress: config.VERDICT_IDENTITY_ADDRESS,
    ...evaluationOptions(config),
    worker: config.VERDICT_EVALUATION_WORKER,
  });
  return { ready: { grpc_port: service.grpc.port }, stop: () => service.stop() };
});
