#!/usr/bin/env node
// The policy service as its own process (distributed mode).
import { DEFAULT_GRPC_PORTS, grpcServiceConfig, runProcess } from "@verdict/runtime";
import { policyBudgetConfig, policyBudgets } from "./config.js";
import { startPolicyService } from "./main.js";

runProcess("policy", grpcServiceConfig(DEFAULT_GRPC_PORTS.policy).extend(policyBudgetConfig.shape), async ({ config, logger, store, bus }) => {
  const opened = await store();
  const service = await startPolicyService({ store: opened, bus, logger, host: config.VERDICT_GRPC_HOST, port: config.VERDICT_GRPC_PORT, budgets: policyBudgets(config) });
  return { ready: { grpc_port: service.grpc.port }, stop: () => service.stop() };
});
