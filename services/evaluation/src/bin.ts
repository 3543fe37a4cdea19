#!/usr/bin/env node
// The evaluation service as its own process (distributed mode). Run several: they share the
// queued work (one consumer group on verdict.evaluation.requested).
import { runGrpcService } from "@verdict/runtime";
import { evaluationOptions, evaluationProcessConfig } from "./config.js";
import { startEvaluationService } from "./main.js";

runGrpcService("evaluation", evaluationProcessConfig, (base, { config }) =>
  startEvaluationService({
    ...base,
    policyAddress: config.VERDICT_POLICY_ADDRESS,
    identityAddress: config.VERDICT_IDENTITY_ADDRESS,
    ...evaluationOptions(config),
    worker: config.VERDICT_EVALUATION_WORKER,
  }),
);
