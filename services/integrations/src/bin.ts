#!/usr/bin/env node
// The integrations service as its own process (distributed mode): provider connections, inbound
// provider events, and what is posted back to the providers.
import { runGrpcService } from "@verdict/runtime";
import { integrationsOptions, integrationsProcessConfig } from "./config.js";
import { startIntegrationsService } from "./main.js";

runGrpcService("integrations", integrationsProcessConfig, (base, { config, logger }) =>
  startIntegrationsService({
    ...base,
    identityAddress: config.VERDICT_IDENTITY_ADDRESS,
    policyAddress: config.VERDICT_POLICY_ADDRESS,
    evaluationAddress: config.VERDICT_EVALUATION_ADDRESS,
    ...integrationsOptions(config, config.VERDICT_DATA_DIR, logger),
  }),
);
