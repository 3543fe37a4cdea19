#!/usr/bin/env node
// The compliance service as its own process (distributed mode): coverage, the evidence
// projection fed by evaluation events, and report generation from report.requested.
import { z } from "zod";
import { persistedSecret } from "@verdict/kit";
import { addressVar, DEFAULT_ADDRESSES, DEFAULT_GRPC_PORTS, grpcServiceConfig, runProcess } from "@verdict/runtime";
import { startComplianceService } from "./main.js";

const schema = grpcServiceConfig(DEFAULT_GRPC_PORTS.compliance).extend({
  VERDICT_POLICY_ADDRESS: addressVar(DEFAULT_ADDRESSES.policy),
  VERDICT_IDENTITY_ADDRESS: addressVar(DEFAULT_ADDRESSES.identity),
  /** Public base URL (scheme and host) of the API, for download links and OSCAL evidence links. */
  VERDICT_PUBLIC_URL: z.url().optional(),
  /** HMAC key of download links; every compliance replica needs the same. Unset: kept in the data dir. */
  VERDICT_REPORT_SIGNING_KEY: z.string().min(32).optional(),
  VERDICT_REPORT_LINK_TTL_SECONDS: z.coerce.number().int().positive().default(3600),
  VERDICT_REPORT_WORKERS: z.coerce.number().int().positive().max(64).default(1),
  VERDICT_REPORT_TIMEOUT_MS: z.coerce.number().int().min(100).default(600_000),
});

runProcess("compliance", schema, async ({ config, logger, store, bus }) => {
  const opened = await store();
  const publicUrl = (config.VERDICT_PUBLIC_URL ?? "http://localhost:8080").replace(/\/+$/, "");
  const service = await startComplianceService({
    store: opened,
    bus,
    logger,
    host: config.VERDICT_GRPC_HOST,
    port: config.VERDICT_GRPC_PORT,
    policyAddress: config.VERDICT_POLICY_ADDRESS,
    identityAddress: config.VERDICT_IDENTITY_ADDRESS,
    signingKey: persistedSecret(config.VERDICT_REPORT_SIGNING_KEY, config.VERDICT_DATA_DIR, "report-signing.key"),
    linkTtlSeconds: config.VERDICT_REPORT_LINK_TTL_SECONDS,
    reportTimeoutMs: config.VERDICT_REPORT_TIMEOUT_MS,
    apiBaseUrl: () => `${publicUrl}/v1`,
    reportWorkers: config.VERDICT_REPORT_WORKERS,
  });
  return { ready: { grpc_port: service.grpc.port }, stop: () => service.stop() };
});
