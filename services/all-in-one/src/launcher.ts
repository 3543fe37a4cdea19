// Starts the whole of Verdict in one process: the store (embedded SQLite, or MongoDB when
// VERDICT_MONGODB_URI is set), the bus (in-process, or Kafka when VERDICT_KAFKA_BROKERS is set),
// the services on loopback gRPC ports on the main thread, and the gateway on a thread of its own
// (HTTP, JSON and validation take a second core while the services match files). Shutdown runs
// in reverse order.
import { join } from "node:path";
import { createBus } from "@verdict/bus";
import { ConfigError, createLogger, persistedSecret, startTelemetry, stopTelemetry, systemClock, trackEventLoopDelay, type Clock, type Logger } from "@verdict/kit";
import { startComplianceService } from "@verdict/compliance";
import { startEvaluationService } from "@verdict/evaluation";
import { SPEC_DEFAULTS, startGatewayThread } from "@verdict/gateway";
import { startIdentityService } from "@verdict/identity";
import { policyBudgets, startPolicyService } from "@verdict/policy";
import { exitProcess } from "@verdict/runtime";
import { createStore, StoreLockedError } from "@verdict/store";
import { resolveMasterKey, startWebhookService } from "@verdict/webhooks";

import type { Config } from "./config.js";

export interface RunningVerdict {
  httpPort: number;
  /** The Prometheus metrics port (VERDICT_METRICS_PORT), when set. */
  metricsPort?: number;
  grpcPorts: { identity: number; policy: number; evaluation: number; compliance: number; webhooks: number };
  generatedBootstrapKey?: string;
  stop(): Promise<void>;
}

export interface LaunchOptions {
  logger?: Logger;
  /** The clock every service reads (tests move it to check expiry). */
  clock?: Clock;
}

/** The report link signing key: configured, or generated once and kept in the data dir. */
function reportSigningKey(config: Config): string {
  return persistedSecret(config.VERDICT_REPORT_SIGNING_KEY, config.dataDir, "report-signing.key");
}

export async function launch(config: Config, options: LaunchOptions = {}): Promise<RunningVerdict> {
  const logger = options.logger ?? createLogger("verdict", config.VERDICT_LOG_LEVEL);
  const clock = options.clock ?? systemClock;
  startTelemetry("verdict");
  const store = await createStore({
    mongodbUri: config.VERDICT_MONGODB_URI,
    mongodbDatabase: config.VERDICT_MONGODB_DATABASE,
    sqliteFile: join(config.dataDir, "verdict.db"),
    // Two all-in-one processes on one data directory would each run the workers and the
    // in-process bus over the same data: the second one refuses to start.
    sqliteExclusive: true,
  }).catch((err: unknown) => {
    if (err instanceof StoreLockedError) {
      throw new ConfigError(`VERDICT_DATA_DIR ${config.dataDir} is in use by another Verdict process; stop it or choose another data directory`);
    }
    throw err;
  });
  const sasl = config.VERDICT_KAFKA_SASL_MECHANISM
    ? { mechanism: config.VERDICT_KAFKA_SASL_MECHANISM, username: config.VERDICT_KAFKA_SASL_USERNAME!, password: config.VERDICT_KAFKA_SASL_PASSWORD! }
    : undefined;
  const bus = await createBus(
    {
      kafkaBrokers: config.VERDICT_KAFKA_BROKERS,
      clientId: config.VERDICT_KAFKA_CLIENT_ID,
      ssl: config.VERDICT_KAFKA_SSL,
      sslCaFile: config.VERDICT_KAFKA_SSL_CA_FILE,
      sasl,
      partitions: config.VERDICT_KAFKA_TOPIC_PARTITIONS,
      replicationFactor: config.VERDICT_KAFKA_REPLICATION_FACTOR,
      topicPrefix: config.VERDICT_KAFKA_TOPIC_PREFIX,
    },
    logger.child({ component: "bus" }),
  ).catch(async (err: unknown) => {
    await store.close();
    throw err;
  });
  logger.info({ store: config.VERDICT_MONGODB_URI ? "mongodb" : "embedded", bus: config.VERDICT_KAFKA_BROKERS ? "kafka" : "in-process" }, "adapters ready");
  // The services' thread (gRPC, the store, the bus); the gateway's thread tracks its own.
  trackEventLoopDelay("services");
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
    const policy = await startPolicyService({ store, bus, logger: logger.child({ service: "policy" }), host, port: port(1), clock, budgets: policyBudgets(config) });
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
      limits: {
        asyncMinFiles: config.VERDICT_ASYNC_MIN_FILES,
        asyncMinBytes: config.VERDICT_ASYNC_MIN_BYTES,
        syncTimeoutMs: config.VERDICT_SCAN_TIMEOUT_MS,
        asyncTimeoutMs: config.VERDICT_ASYNC_SCAN_TIMEOUT_MS,
        maxInFlightPerOrganization: config.VERDICT_ORG_MAX_EVALUATIONS_IN_FLIGHT,
      },
      scanWorkers: config.VERDICT_SCAN_WORKERS,
      scanThreadsPerOrganization: config.VERDICT_SCAN_THREADS_PER_ORG,
      clock,
    });
    // By the time it stops, the gateway has drained (VERDICT_SHUTDOWN_GRACE_MS) and cancelled
    // what it could not finish: scans still running are abandoned at once.
    stops.push(() => evaluation.stop(1_000));
    let httpPort = config.VERDICT_HTTP_PORT;
    const publicUrl = config.VERDICT_PUBLIC_URL?.replace(/\/+$/, "");
    const compliance = await startComplianceService({
      store,
      bus,
      logger: logger.child({ service: "compliance" }),
      host,
      port: port(3),
      policyAddress,
      identityAddress: `${host}:${identity.grpc.port}`,
      signingKey: reportSigningKey(config),
      linkTtlSeconds: config.VERDICT_REPORT_LINK_TTL_SECONDS,
      reportTimeoutMs: config.VERDICT_REPORT_TIMEOUT_MS,
      apiBaseUrl: () => `${publicUrl ?? `http://localhost:${httpPort}`}/v1`,
      reportWorkers: config.VERDICT_REPORT_WORKERS,
      clock,
    });
    stops.push(() => compliance.stop());
    const webhooks = await startWebhookService({
      store,
      bus,
      logger: logger.child({ service: "webhooks" }),
      host,
      port: port(4),
      masterKey: resolveMasterKey(config.VERDICT_WEBHOOK_MASTER_KEY, config.dataDir, logger),
      ...(config.VERDICT_WEBHOOK_RETRY_SCHEDULE ? { retrySchedule: config.VERDICT_WEBHOOK_RETRY_SCHEDULE } : {}),
      timeoutMs: config.VERDICT_WEBHOOK_TIMEOUT_MS,
      concurrency: config.VERDICT_WEBHOOK_CONCURRENCY,
      orgConcurrency: config.VERDICT_WEBHOOK_ORG_CONCURRENCY,
      maxPerOrg: config.VERDICT_WEBHOOK_MAX_PER_ORG,
      allowHttp: config.VERDICT_WEBHOOK_ALLOW_HTTP,
      allowPrivate: config.VERDICT_WEBHOOK_ALLOW_PRIVATE,
      ...(config.VERDICT_WEBHOOK_ALLOWED_HOSTS ? { allowedHosts: config.VERDICT_WEBHOOK_ALLOWED_HOSTS } : {}),
      clock,
    });
    stops.push(() => webhooks.stop());
    const gateway = await startGatewayThread({
      host: config.VERDICT_HTTP_HOST,
      port: config.VERDICT_HTTP_PORT,
      services: {
        identity: `${host}:${identity.grpc.port}`,
        policy: policyAddress,
        evaluation: `${host}:${evaluation.grpc.port}`,
        compliance: `${host}:${compliance.grpc.port}`,
        webhooks: `${host}:${webhooks.grpc.port}`,
      },
      ...(publicUrl ? { publicUrl: `${publicUrl}/v1` } : {}),
      bus,
      logLevel: logger.level,
      onCrash: (err) => {
        // Without its gateway the process serves nothing: stop it all and exit with an error.
        logger.fatal({ err }, "the gateway thread stopped unexpectedly");
        process.exitCode = 1;
        void stopAll().finally(() => exitProcess(1, logger));
      },
      limits: {
        ...SPEC_DEFAULTS,
        per_minute: config.VERDICT_RATE_LIMIT_PER_MINUTE,
        per_hour: config.VERDICT_RATE_LIMIT_PER_HOUR,
        per_day: config.VERDICT_RATE_LIMIT_PER_DAY,
      },
      bodyLimitBytes: config.VERDICT_MAX_BODY_BYTES,
      maxEvaluationsInFlightPerOrg: config.VERDICT_ORG_MAX_EVALUATIONS_IN_FLIGHT,
      authCacheTtlMs: config.VERDICT_AUTH_CACHE_TTL_MS,
      trustProxy: config.VERDICT_TRUST_PROXY,
      requestTimeoutMs: config.VERDICT_REQUEST_TIMEOUT_MS,
      headersTimeoutMs: config.VERDICT_HEADERS_TIMEOUT_MS,
      ...(config.VERDICT_METRICS_PORT !== undefined ? { metrics: { host: config.VERDICT_METRICS_HOST, port: config.VERDICT_METRICS_PORT } } : {}),
      shutdownGraceMs: config.VERDICT_SHUTDOWN_GRACE_MS,
    });
    // The gateway stops first so that in-flight requests can still reach the services.
    stops.push(() => gateway.stop());
    httpPort = gateway.port;
    return {
      httpPort: gateway.port,
      ...(gateway.metricsPort !== undefined ? { metricsPort: gateway.metricsPort } : {}),
      grpcPorts: {
        identity: identity.grpc.port,
        policy: policy.grpc.port,
        evaluation: evaluation.grpc.port,
        compliance: compliance.grpc.port,
        webhooks: webhooks.grpc.port,
      },
      ...(identity.generatedBootstrapKey ? { generatedBootstrapKey: identity.generatedBootstrapKey } : {}),
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
