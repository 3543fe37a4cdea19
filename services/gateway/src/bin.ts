#!/usr/bin/env node
// The gateway as its own process (distributed mode): REST /v1 in front of the services' gRPC.
import { runProcess } from "@verdict/runtime";
import { gatewayOptions, gatewayProcessConfig } from "./http/config.js";
import { startGateway } from "./main.js";

runProcess("gateway", gatewayProcessConfig, async ({ config, logger, bus }) => {
  const gateway = await startGateway({
    ...gatewayOptions(config),
    services: {
      identity: config.VERDICT_IDENTITY_ADDRESS,
      policy: config.VERDICT_POLICY_ADDRESS,
      evaluation: config.VERDICT_EVALUATION_ADDRESS,
      compliance: config.VERDICT_COMPLIANCE_ADDRESS,
      webhooks: config.VERDICT_WEBHOOKS_ADDRESS,
      integrations: config.VERDICT_INTEGRATIONS_ADDRESS,
    },
    bus,
    logger,
  });
  return { ready: { http_port: gateway.port }, stop: () => gateway.stop() };
});
