#!/usr/bin/env node
// The compliance service as its own process (distributed mode): coverage, the evidence
// projection fed by evaluation events, and report generation from report.requested.
import { HTTP_PORT, runProcess } from "@verdict/runtime";
import { complianceOptions, complianceProcessConfig } from "./config.js";
import { startComplianceService } from "./main.js";

runProcess("compliance", complianceProcessConfig, async ({ config, logger, store, bus }) => {
  const opened = await store();
  const service = await startComplianceService({
    store: opened,
    bus,
    logger,
    host: config.VERDICT_GRPC_HOST,
    port: config.VERDICT_GRPC_PORT,
    policyAddress: config.VERDICT_POLICY_ADDRESS,
    identityAddress: config.VERDICT_IDENTITY_ADDRESS,
    ...complianceOptions(config, config.VERDICT_DATA_DIR, () => `http://localhost:${HTTP_PORT}`),
  });
  return { ready: { grpc_port: service.grpc.port }, stop: () => service.stop() };
});
