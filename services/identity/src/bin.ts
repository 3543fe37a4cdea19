#!/usr/bin/env node
// The identity service as its own process (distributed mode).
import { z } from "zod";
import { addressVar, DEFAULT_ADDRESSES, DEFAULT_GRPC_PORTS, grpcServiceConfig, runProcess } from "@verdict/runtime";
import { parseKey } from "./domain/apiKey.js";
import { startIdentityService } from "./main.js";

const schema = grpcServiceConfig(DEFAULT_GRPC_PORTS.identity).extend({
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
    ...(config.VERDICT_BOOTSTRAP_API_KEY ? { bootstrapKey: config.VERDICT_BOOTSTRAP_API_KEY } : {}),
  });
  if (service.generatedBootstrapKey) {
    // Printed once, on the first start, to the terminal only (never to the structured logs).
    process.stderr.write(`\n  Verdict created the instance operator's API key. It is shown only now; store it safely:\n\n    ${service.generatedBootstrapKey}\n\n`);
  }
  return { ready: { grpc_port: service.grpc.port }, stop: () => service.stop() };
});
