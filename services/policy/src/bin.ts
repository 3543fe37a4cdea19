#!/usr/bin/env node
// The policy service as its own process (distributed mode).
import { runProcess } from "@verdict/runtime";
import { policyBudgets, policyProcessConfig } from "./config.js";
import { startPolicyService } from "./main.js";

runProcess("policy", policyProcessConfig, async ({ config, logger, store, bus }) => {
  const opened = await store();
  const service = await startPolicyService({
    store: opened,
    bus,
    logger,
    host: config.VERDICT_GRPC_HOST,
    port: config.VERDICT_GRPC_PORT,
    budgets: policyBudgets(config),
  });
  return { ready: { grpc_port: service.grpc.port }, stop: () => service.stop() };
});
