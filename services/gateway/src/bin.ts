#!/usr/bin/env node
// The gateway as its own process (distributed mode): REST /v1 in front of the services' gRPC.
import { z } from "zod";
import { portVar } from "@verdict/kit";
import { addressVar, DEFAULT_ADDRESSES, processConfig, runProcess } from "@verdict/runtime";
import { gatewayHttpConfig } from "./http/config.js";
import { SPEC_DEFAULTS } from "./http/rateLimit.js";
import { startGateway } from "./main.js";

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

// VERDICT_METRICS_PORT / _HOST (in gatewayHttpConfig) are served by runProcess, on their own port.
const schema = processConfig.extend({
  ...gatewayHttpConfig.shape,
  VERDICT_HTTP_PORT: portVar(8080),
  VERDICT_HTTP_HOST: z.string().min(1).default("0.0.0.0"),
  VERDICT_IDENTITY_ADDRESS: addressVar(DEFAULT_ADDRESSES.identity),
  VERDICT_POLICY_ADDRESS: addressVar(DEFAULT_ADDRESSES.policy),
  VERDICT_EVALUATION_ADDRESS: addressVar(DEFAULT_ADDRESSES.evaluation),
  VERDICT_COMPLIANCE_ADDRESS: addressVar(DEFAULT_ADDRESSES.compliance),
  VERDICT_WEBHOOKS_ADDRESS: addressVar(DEFAULT_ADDRESSES.webhooks),
  /** Public base URL (scheme and host) for links the API hands out; unset: the request's host. */
  VERDICT_PUBLIC_URL: z.url().optional(),
  VERDICT_MAX_BODY_BYTES: positiveInt(32 * 1024 * 1024),
  /** Evaluation requests of one organization in flight at once (bodies held in memory). */
  VERDICT_ORG_MAX_EVALUATIONS_IN_FLIGHT: z.coerce.number().int().positive().default(8),
  VERDICT_AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).default(30_000),
  VERDICT_RATE_LIMIT_PER_MINUTE: positiveInt(1_000),
  VERDICT_RATE_LIMIT_PER_HOUR: positiveInt(20_000),
  VERDICT_RATE_LIMIT_PER_DAY: positiveInt(240_000),
});

runProcess("gateway", schema, async ({ config, logger, bus }) => {
  const gateway = await startGateway({
    host: config.VERDICT_HTTP_HOST,
    port: config.VERDICT_HTTP_PORT,
    services: {
      identity: config.VERDICT_IDENTITY_ADDRESS,
      policy: config.VERDICT_POLICY_ADDRESS,
      evaluation: config.VERDICT_EVALUATION_ADDRESS,
      compliance: config.VERDICT_COMPLIANCE_ADDRESS,
      webhooks: config.VERDICT_WEBHOOKS_ADDRESS,
    },
    ...(config.VERDICT_PUBLIC_URL ? { publicUrl: `${config.VERDICT_PUBLIC_URL.replace(/\/+$/, "")}/v1` } : {}),
    bus,
    logger,
    limits: { ...SPEC_DEFAULTS, per_minute: config.VERDICT_RATE_LIMIT_PER_MINUTE, per_hour: config.VERDICT_RATE_LIMIT_PER_HOUR, per_day: config.VERDICT_RATE_LIMIT_PER_DAY },
    bodyLimitBytes: config.VERDICT_MAX_BODY_BYTES,
    maxEvaluationsInFlightPerOrg: config.VERDICT_ORG_MAX_EVALUATIONS_IN_FLIGHT,
    authCacheTtlMs: config.VERDICT_AUTH_CACHE_TTL_MS,
    trustProxy: config.VERDICT_TRUST_PROXY,
    requestTimeoutMs: config.VERDICT_REQUEST_TIMEOUT_MS,
    headersTimeoutMs: config.VERDICT_HEADERS_TIMEOUT_MS,
    shutdownGraceMs: config.VERDICT_SHUTDOWN_GRACE_MS,
  });
  return { ready: { http_port: gateway.port }, stop: () => gateway.stop() };
});
