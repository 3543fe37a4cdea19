#!/usr/bin/env node
// The identity service as its own process (distributed mode).
import { resolveMasterKey } from "@verdict/kit";
import { runProcess } from "@verdict/runtime";
import { identityProcessConfig, sessionPolicy } from "./config.js";
import { startIdentityService } from "./main.js";

runProcess("identity", identityProcessConfig, async ({ config, logger, store, bus }) => {
  const opened = await store();
  const service = await startIdentityService({
    store: opened,
    bus,
    logger,
    host: config.VERDICT_GRPC_HOST,
    port: config.VERDICT_GRPC_PORT,
    policyAddress: config.VERDICT_POLICY_ADDRESS,
    // Every replica needs the same key: set VERDICT_WEBHOOK_MASTER_KEY when they do not share a data directory.
    masterKey: resolveMasterKey(config.VERDICT_WEBHOOK_MASTER_KEY, config.VERDICT_DATA_DIR, logger),
    sessions: sessionPolicy(config),
    oidcDiscoveryTtlMs: config.VERDICT_OIDC_DISCOVERY_TTL_SECONDS * 1000,
    ssoAllowPrivate: config.VERDICT_SSO_ALLOW_PRIVATE,
    ...(config.VERDICT_BOOTSTRAP_API_KEY ? { bootstrapKey: config.VERDICT_BOOTSTRAP_API_KEY } : {}),
  });
  if (service.generatedBootstrapKey) {
    // Printed once, on the first start, to the terminal only (never to the structured logs).
    process.stderr.write(
      `\n  Verdict created the instance operator's API key. It is shown only now; store it safely:\n\n    ${service.generatedBootstrapKey}\n\n`,
    );
  }
  return { ready: { grpc_port: service.grpc.port }, stop: () => service.stop() };
});
