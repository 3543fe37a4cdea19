// Starts the whole of Verdict in one process: the store (embedded SQLite, or MongoDB when
// VERDICT_MONGODB_URI is set), the bus (in-process, or Kafka when VERDICT_KAFKA_BROKERS is set),
// the services on loopback gRPC ports on the main thread, and the gateway on a thread of its own
// (HTTP, JSON and validation take a second core while the services match files). Shutdown runs
// in reverse order.
import { join } from "node:path";
import { createBus } from "@verdict/bus";
import {
  ConfigError,
  createLogger,
  startTelemetry,
  stopTelemetry,
  systemClock,
  trackEventLoopDelay,
  type Clock,
  type Logger,
} from "@verdict/kit";
import { complianceOptions, startComplianceService } from "@verdict/compliance";
import { evaluationOptions, startEvaluationService } from "@verdict/evaluation";
import { gatewayOptions, startGatewayThread } from "@verdict/gateway";
import { identityOptions, startIdentityService } from "@verdict/identity";
import { integrationsOptions, startIntegrationsService } from "@verdict/integrations";
import { policyBudgets, startPolicyService } from "@verdict/policy";
import { busOptions, exitProcess, grpcPorts, type GrpcServiceName, type ServiceBase } from "@verdict/runtime";
import { createStore, StoreLockedError } from "@verdict/store";
import { startWebhookService, webhookOptions } from "@verdict/webhooks";

import type { Config } from "./config.js";

export interface RunningVerdict {
  httpPort: number;
  /** The Prometheus metrics port (VERDICT_METRICS_PORT), when set. */
  metricsPort?: number;
  grpcPorts: {
    identity: number;
    policy: number;
    evaluation: number;
    compliance: number;
    webhooks: number;
    integrations: number;
  };
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
  const store = await createStore({
    mongodbUri: config.VERDICT_MONGODB_URI,
    mongodbDatabase: config.VERDICT_MONGODB_DATABASE,
    sqliteFile: join(config.dataDir, "verdict.db"),
    // Two all-in-one processes on one data directory would each run the workers and the
    // in-process bus over the same data: the second one refuses to start.
    sqliteExclusive: true,
  }).catch((err: unknown) => {
    if (err instanceof StoreLockedError) {
      throw new ConfigError(
        `VERDICT_DATA_DIR ${config.dataDir} is in use by another Verdict process; stop it or choose another data directory`,
      );
    }
    throw err;
  });
  const bus = await createBus(busOptions(config, "verdict"), logger.child({ component: "bus" })).catch(
    async (err: unknown) => {
      await store.close();
      throw err;
    },
  );
  logger.info(
    {
      store: config.VERDICT_MONGODB_URI ? "mongodb" : "embedded",
      bus: config.VERDICT_KAFKA_BROKERS ? "kafka" : "in-process",
    },
    "adapters ready",
  );
  // The services' thread (gRPC, the store, the bus); the gateway's thread tracks its own.
  trackEventLoopDelay("services");
  const host = config.VERDICT_GRPC_HOST;
  const port = grpcPorts(config.VERDICT_GRPC_BASE_PORT);
  // Every service shares the adapters and the clock, on a loopback port of its own.
  const base = (service: GrpcServiceName): ServiceBase => ({
    store,
    bus,
    logger: logger.child({ service }),
    host,
    port: port[service],
    clock,
  });
  const stops: (() => Promise<void>)[] = [];
  // Work the process starts on its own (webhook deliveries) stops at once, while the gateway
  // drains: a retry due during the drain is left to the next process, as its schedule says.
  const quiesce: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    const quiet = Promise.allSettled(quiesce.map((q) => q()));
    for (const stop of stops.reverse()) await stop().catch((err) => logger.error({ err }, "error while stopping"));
    await quiet;
    await bus.close();
    await store.close();
    await stopTelemetry();
  };

  try {
    const policy = await startPolicyService({ ...base("policy"), budgets: policyBudgets(config) });
    stops.push(() => policy.stop());
    const policyAddress = `${host}:${policy.grpc.port}`;
    const identity = await startIdentityService({
      ...base("identity"),
      policyAddress,
      ...identityOptions(config, config.dataDir, logger),
    });
    stops.push(() => identity.stop());
    const evaluation = await startEvaluationService({
      ...base("evaluation"),
      policyAddress,
      identityAddress: `${host}:${identity.grpc.port}`,
      ...evaluationOptions(config),
      // Queued contents as files of the data directory, off the embedded store's thread.
      spoolDir: join(config.dataDir, "evaluation-queue"),
    });
    // By the time it stops, the gateway has drained (VERDICT_SHUTDOWN_GRACE_MS) and cancelled
    // what it could not finish: scans still running are abandoned at once.
    stops.push(() => evaluation.stop(1_000));
    let httpPort = config.VERDICT_HTTP_PORT;
    const compliance = await startComplianceService({
      ...base("compliance"),
      policyAddress,
      identityAddress: `${host}:${identity.grpc.port}`,
      ...complianceOptions(config, config.dataDir, () => `http://localhost:${httpPort}`),
    });
    stops.push(() => compliance.stop());
    const webhooks = await startWebhookService({
      ...base("webhooks"),
      ...webhookOptions(config, config.dataDir, logger),
    });
    stops.push(() => webhooks.stop());
    quiesce.push(() => webhooks.stopDelivering());
    const integrations = await startIntegrationsService({
      ...base("integrations"),
      identityAddress: `${host}:${identity.grpc.port}`,
      policyAddress,
      evaluationAddress: `${host}:${evaluation.grpc.port}`,
      ...integrationsOptions(config, config.dataDir, logger),
    });
    stops.push(() => integrations.stop());
    const gateway = await startGatewayThread({
      ...gatewayOptions(config),
      services: {
        identity: `${host}:${identity.grpc.port}`,
        policy: policyAddress,
        evaluation: `${host}:${evaluation.grpc.port}`,
        compliance: `${host}:${compliance.grpc.port}`,
        webhooks: `${host}:${webhooks.grpc.port}`,
        integrations: `${host}:${integrations.grpc.port}`,
      },
      bus,
      logLevel: logger.level,
      onCrash: (err) => {
        // Without its gateway the process serves nothing: stop it all and exit with an error.
        logger.fatal({ err }, "the gateway thread stopped unexpectedly");
        process.exitCode = 1;
        void stopAll().finally(() => exitProcess(1, logger));
      },
      ...(config.VERDICT_METRICS_PORT !== undefined
        ? { metrics: { host: config.VERDICT_METRICS_HOST, port: config.VERDICT_METRICS_PORT } }
        : {}),
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
        integrations: integrations.grpc.port,
      },
      ...(identity.generatedBootstrapKey ? { generatedBootstrapKey: identity.generatedBootstrapKey } : {}),
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
