// Starts the whole of Verdict in one process: embedded store, in-process bus, the services
// on loopback gRPC ports, and the gateway. Shutdown runs in reverse order.
import { join } from "node:path";
import { InProcessBus } from "@verdict/bus";
import { createLogger, startTelemetry, stopTelemetry, systemClock, type Clock, type Logger } from "@verdict/kit";
import { startEvaluationService } from "@verdict/evaluation";
import { SPEC_DEFAULTS, startGateway } from "@verdict/gateway";
import { startIdentityService } from "@verdict/identity";
import { startPolicyService } from "@verdict/policy";
import { SqliteStore } from "@verdict/store";
import { startWebhookService } from "@verdict/webhooks";
import { resolveMasterKey } from "./masterKey.js";
import type { Config } from "./config.js";

export interface RunningVerdict {
  httpPort: number;
  grpcPorts: { identity: number; policy: number; evaluation: number; webhooks: number };
  generatedBootstrapKey?: string;
  stop(): Promise<void>;
}

export interface LaunchOptions {
  logger?: Logger;
  /** The clock every service reads (tests move it to check expiry). */
  clock?: Clock;
}

export async function launch(config: Config, options: LaunchOptions = {}): Promise<RunningVerdict> {
  const logger = options.logger ?? createLogger("verdict", config.VERDICT_LOG_LEVEL);
  const clock = options.clock ?? systemClock;
  startTelemetry("verdict");
  const store = new SqliteStore(join(config.dataDir, "verdict.db"));
  const bus = new InProcessBus(logger.child({ component: "bus" }));
  const host = config.VERDICT_GRPC_HOST;
  const base = config.VERDICT_GRPC_BASE_PORT;
  const port = (offset: number) => (base === 0 ? 0 : base + offset);
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch((err) => logger.error({ err }, "error while stopping"));
    await bus.close();
    await store.close();
    await stopTelemetry();
  };

  try {
    const policy = await startPolicyService({ store, bus, logger: logger.child({ service: "policy" }), host, port: port(1), clock });
    stops.push(() => policy.stop());
    const policyAddress = `${host}:${policy.grpc.port}`;
    const identity = await startIdentityService({
      store,
      bus,
      logger: logger.child({ service: "identity" }),
      host,
      port: port(0),
      policyAddress,
      bootstrapKey: config.VERDICT_BOOTSTRAP_API_KEY,
      clock,
    });
    stops.push(() => identity.stop());
    const evaluation = await startEvaluationService({
      store,
      bus,
      logger: logger.child({ service: "evaluation" }),
      host,
      port: port(2),
      policyAddress,
      identityAddress: `${host}:${identity.grpc.port}`,
      limits: { asyncMinFiles: config.VERDICT_ASYNC_MIN_FILES, asyncMinBytes: config.VERDICT_ASYNC_MIN_BYTES },
      clock,
    });
    stops.push(() => evaluation.stop());
    const webhooks = await startWebhookService({
      store,
      bus,
      logger: logger.child({ service: "webhooks" }),
      host,
      port: port(4),
      masterKey: resolveMasterKey(config, logger),
      ...(config.VERDICT_WEBHOOK_RETRY_SCHEDULE ? { retrySchedule: config.VERDICT_WEBHOOK_RETRY_SCHEDULE } : {}),
      timeoutMs: config.VERDICT_WEBHOOK_TIMEOUT_MS,
      allowHttp: config.VERDICT_WEBHOOK_ALLOW_HTTP,
      allowPrivate: config.VERDICT_WEBHOOK_ALLOW_PRIVATE,
      ...(config.VERDICT_WEBHOOK_ALLOWED_HOSTS ? { allowedHosts: config.VERDICT_WEBHOOK_ALLOWED_HOSTS } : {}),
      clock,
    });
    stops.push(() => webhooks.stop());
    const gateway = await startGateway({
      host: config.VERDICT_HTTP_HOST,
      port: config.VERDICT_HTTP_PORT,
      services: { identity: `${host}:${identity.grpc.port}`, policy: policyAddress, evaluation: `${host}:${evaluation.grpc.port}`, webhooks: `${host}:${webhooks.grpc.port}` },
      bus,
      logger: logger.child({ service: "gateway" }),
      limits: {
        ...SPEC_DEFAULTS,
        per_minute: config.VERDICT_RATE_LIMIT_PER_MINUTE,
        per_hour: config.VERDICT_RATE_LIMIT_PER_HOUR,
        per_day: config.VERDICT_RATE_LIMIT_PER_DAY,
      },
      bodyLimitBytes: config.VERDICT_MAX_BODY_BYTES,
      authCacheTtlMs: config.VERDICT_AUTH_CACHE_TTL_MS,
      trustProxy: config.VERDICT_TRUST_PROXY,
      shutdownGraceMs: config.VERDICT_SHUTDOWN_GRACE_MS,
    });
    // The gateway stops first so that in-flight requests can still reach the services.
    stops.push(() => gateway.stop());
    return {
      httpPort: gateway.port,
      grpcPorts: { identity: identity.grpc.port, policy: policy.grpc.port, evaluation: evaluation.grpc.port, webhooks: webhooks.grpc.port },
      ...(identity.generatedBootstrapKey ? { generatedBootstrapKey: identity.generatedBootstrapKey } : {}),
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
