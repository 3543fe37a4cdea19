#!/usr/bin/env node
// The integrations service as its own process (distributed mode): provider connections, inbound
// provider events, and what is posted back to the providers.
import { runProcess } from "@verdict/runtime";
import { integrationsOptions, integrationsProcessConfig } from "./config.js";
import { startIntegrationsService } from "./main.js";

runProcess("integrations", integrationsProcessConfig, async ({ config, logger, store, bus }) => {
  const opened = await store();
  const service = await startIntegrationsService({
    store: opened,
    bus,
    logger,
    host: config.VERDICT_GRPC_HOST,
    port: config.VERDICT_GRPC_PORT,
    identityAddress: config.VERDICT_IDENTITY_ADDRESS,
    policyAddress: config.VERDICT_POLICY_ADDRESS,
    evaluationAddress: config.VERDICT_EVALUATION_ADDRESS,
    ...integrationsOptions(config, config.VERDICT_DATA_DIR, logger),
  });
  return { ready: { grpc_port: service.grpc.port }, stop: () => service.stop() };
});
