#!/usr/bin/env node
// The identity service as its own process (distributed mode).
import { z } from "zod";
import { parseMasterKey, resolveMasterKey } from "@verdict/kit";
import { identityConfig, sessionPolicy } from "./config.js";
import { addressVar, DEFAULT_ADDRESSES, DEFAULT_GRPC_PORTS, grpcServiceConfig, runProcess } from "@verdict/runtime";
import { parseKey } from "./domain/apiKey.js";
import { startIdentityService } from "./main.js";

const schema = grpcServiceConfig(DEFAULT_GRPC_PORTS.identity).extend({
  ...identityConfig.shape,
  /** The instance's master key (shared with the webhooks service); TOTP secrets use a subkey of it. */
  VERDICT_WEBHOOK_MASTER_KEY: z
    .string()
    .optional()
    .superRefine((v, ctx) => {
      if (!v) return;
      try {
        parseMasterKey(v);
      } catch (err) {
        ctx.addIssue({ code: "custom", message: `${(err as Error).message} (generate one with: openssl rand -base64 32)` });
      }
    }),
  VERDICT_POLICY_ADDRESS: addressVar(DEFAULT_ADDRESSES.policy),
  VERDICT_BOOTSTRAP_API_KEY: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === "" || parseKey(v).ok, {
      message: "must be a Verdict key (vdt_key_<prod|test>_ + 32 base62 characters + 6-character checksum)",
    }),
});

runProcess("identity", schema, async ({ config, logger, store, bus }) => {
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
    ...(config.VERDICT_BOOTSTRAP_API_KEY ? { bootstrapKey: config.VERDICT_BOOTSTRAP_API_KEY } : {}),
  });
  if (service.generatedBootstrapKey) {
    // Printed once, on the first start, to the terminal only (never to the structured logs).
    process.stderr.write(`\n  Verdict created the instance operator's API key. It is shown only now; store it safely:\n\n    ${service.generatedBootstrapKey}\n\n`);
  }
  return { ready: { grpc_port: service.grpc.port }, stop: () => service.stop() };
});
