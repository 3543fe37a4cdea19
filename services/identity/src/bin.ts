#!/usr/bin/env node
// The identity service as its own process (distributed mode).
import { runGrpcService } from "@verdict/runtime";
import { identityOptions, identityProcessConfig } from "./config.js";
import { startIdentityService } from "./main.js";

runGrpcService("identity", identityProcessConfig, async (base, { config, logger }) => {
  const service = await startIdentityService({
    ...base,
    policyAddress: config.VERDICT_POLICY_ADDRESS,
    ...identityOptions(config, config.VERDICT_DATA_DIR, logger),
  });
  if (service.generatedBootstrapKey) {
    // Printed once, on the first start, to the terminal only (never to the structured logs).
    process.stderr.write(
      `\n  Verdict created the instance operator's API key. It is shown only now; store it safely:\n\n    ${service.generatedBootstrapKey}\n\n`,
    );
  }
  return service;
});
