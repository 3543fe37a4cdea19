// What every standalone service process shares (services/<name>/src/bin.ts): its configuration
// from the environment, the Store and Bus adapters that configuration selects, a ready line,
// and a clean stop on SIGTERM/SIGINT. The all-in-one launcher does the same wiring in one
// process; the services themselves are the same code either way.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve, join } from "node:path";
import { mkdirSync } from "node:fs";
import type { z } from "zod";
import { createBus, type Bus } from "@verdict/bus";
import { ConfigError, createLogger, registry, startTelemetry, stopTelemetry, type Logger } from "@verdict/kit";
import { createStore, type Store } from "@verdict/store";
import { busOptions, readVariables, type AdapterConfig, type processConfig, type ProcessConfig } from "./config.js";
import { exitProcess } from "./pool.js";

/** Start-up attempts (0.5 s, 1 s, 2 s, 4 s apart) before a process gives up with exit code 1. */
const START_ATTEMPTS = 5;

/** Scrapes allowed per client address and minute on a metrics port (Prometheus takes 4). */
export const METRICS_REQUESTS_PER_MINUTE = 60;

/**
 * A Prometheus endpoint on a port of its own, never the API's: a service's on the gRPC host, the
 * gateway's on VERDICT_METRICS_HOST. Keep it inside the monitoring network. Each client address
 * may scrape METRICS_REQUESTS_PER_MINUTE times a minute (429 with Retry-After beyond), so
 * nobody who reaches it can make the process render its metrics in a loop.
 */
export async function startMetricsServer(
  host: string,
  port: number,
  metrics: () => Promise<string> = () => registry.metrics(),
): Promise<{ port: number; stop(): Promise<void> }> {
  const windows = new Map<string, { count: number; resetAt: number }>();
  const server = createServer((req, res) => {
    const now = Date.now();
    const address = req.socket.remoteAddress ?? "";
    let window = windows.get(address);
    if (!window || window.resetAt <= now) {
      if (windows.size > 10_000) windows.clear();
      window = { count: 0, resetAt: now + 60_000 };
      windows.set(address, window);
    }
    if (++window.count > METRICS_REQUESTS_PER_MINUTE) {
      res
        .writeHead(429, {
          "retry-after": String(Math.ceil((window.resetAt - now) / 1000)),
          "content-type": "text/plain",
        })
        .end("too many requests\n");
      return;
    }
    if (req.method !== "GET" || (req.url ?? "").split("?")[0] !== "/metrics") {
      res.writeHead(404).end();
      return;
    }
    metrics()
      .then((text) =>
        res.writeHead(200, { "content-type": registry.contentType, "cache-control": "no-store" }).end(text),
      )
      .catch(() => res.writeHead(500).end());
  });
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;
  await new Promise<void>((ok, fail) => {
    server.once("error", fail);
    server.listen(port, host, () => ok());
  });
  return {
    port: (server.address() as AddressInfo).port,
    stop: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

/** Opens the Store the configuration selects. */
export async function openStore(
  config: Pick<ProcessConfig, "VERDICT_DATA_DIR" | "VERDICT_MONGODB_URI" | "VERDICT_MONGODB_DATABASE">,
  logger: Logger,
): Promise<Store> {
  const dataDir = resolve(config.VERDICT_DATA_DIR);
  if (!config.VERDICT_MONGODB_URI) {
    mkdirSync(dataDir, { recursive: true });
    // SQLite in WAL mode is safe to share between processes of one machine.
    logger.info({ data_dir: dataDir }, "store: embedded SQLite");
  } else {
    logger.info("store: MongoDB");
  }
  return createStore({
    mongodbUri: config.VERDICT_MONGODB_URI,
    mongodbDatabase: config.VERDICT_MONGODB_DATABASE,
    sqliteFile: join(dataDir, "verdict.db"),
  });
}

/** Opens the Bus the configuration selects. */
export async function openBus(config: AdapterConfig, logger: Logger, clientId = "verdict"): Promise<Bus> {
  if (!config.VERDICT_KAFKA_BROKERS)
    logger.warn("bus: in-process (no VERDICT_KAFKA_BROKERS): events reach only this process");
  else logger.info({ brokers: config.VERDICT_KAFKA_BROKERS }, "bus: Kafka");
  return createBus(busOptions(config, clientId), logger.child({ component: "bus" }));
}

export interface StartedProcess {
  /** Fields of the ready log line (ports, …). */
  ready: Record<string, unknown>;
  stop(): Promise<void>;
}

export interface RunContext<C> {
  config: C;
  logger: Logger;
  /** Opens the Store on first call (the gateway never does: it holds no state). */
  store(): Promise<Store>;
  /** The Bus; a process started with `{ bus: false }` has none, and reading it throws. */
  bus: Bus;
}

export interface RunOptions {
  /** false: the process neither publishes nor consumes events, so no Bus is opened. Default true. */
  bus?: boolean;
}

/**
 * Runs one service as a process: reads and validates its configuration (exit 2 naming every bad
 * variable), opens the adapters, starts the service, logs `<name> ready`, and on SIGTERM or
 * SIGINT stops it, closes the bus and the store, and exits 0.
 */
export function runProcess<S extends typeof processConfig>(
  name: string,
  schema: S,
  start: (ctx: RunContext<z.infer<S>>) => Promise<StartedProcess>,
  options: RunOptions = {},
): void {
  const withBus = options.bus !== false;
  let config: z.infer<S>;
  try {
    config = readVariables(schema, process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const logger = createLogger(name, config.VERDICT_LOG_LEVEL);
  const main = async () => {
    startTelemetry(`verdict-${name}`);
    // The database or the broker may not be there yet (everything starting at once, a broker
    // electing leaders for topics just created): try again a few times before giving up.
    let store: Promise<Store> | undefined;
    let bus: Bus | undefined;
    let started: StartedProcess | undefined;
    const closeStore = async () => {
      const opened = store;
      store = undefined;
      if (opened) await (await opened).close();
    };
    for (let attempt = 1; !started; attempt++) {
      try {
        if (withBus) bus = await openBus(config, logger, `verdict-${name}`);
        const opened = bus;
        started = await start({
          config,
          logger,
          store: () => (store ??= openStore(config, logger)),
          get bus(): Bus {
            if (!opened) throw new Error(`${name} runs without a bus (runProcess option bus: false)`);
            return opened;
          },
        });
      } catch (err) {
        await bus?.close().catch(() => undefined);
        await closeStore().catch(() => undefined);
        if (attempt >= START_ATTEMPTS) throw err;
        const delay = 500 * 2 ** (attempt - 1);
        logger.warn({ err, attempt, retry_in_ms: delay }, `${name} could not start; trying again`);
        await new Promise((r) => setTimeout(r, delay));
      }
    }
    const running = started;
    const metricsPort = (config as { VERDICT_METRICS_PORT?: number }).VERDICT_METRICS_PORT;
    const host = config as { VERDICT_METRICS_HOST?: string; VERDICT_GRPC_HOST?: string };
    const metrics =
      metricsPort === undefined
        ? null
        : await startMetricsServer(host.VERDICT_METRICS_HOST ?? host.VERDICT_GRPC_HOST ?? "127.0.0.1", metricsPort);
    logger.info(
      { pid: process.pid, ...running.ready, ...(metrics ? { metrics_port: metrics.port } : {}) },
      `${name} ready`,
    );
    let stopping = false;
    const shutdown = (signal: string) => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, "shutting down");
      const force = setTimeout(() => {
        logger.error("shutdown took too long; exiting");
        exitProcess(1, logger);
      }, config.VERDICT_SHUTDOWN_GRACE_MS + 10_000);
      force.unref();
      (async () => {
        await running.stop();
        await metrics?.stop();
        await bus?.close();
        await closeStore();
        await stopTelemetry();
      })()
        .then(() => {
          logger.info("stopped");
          exitProcess(0, logger);
        })
        .catch((err) => {
          logger.error({ err }, "shutdown failed");
          exitProcess(1, logger);
        });
    };
    process.on("SIGTERM", () => shutdown("SIGTERM"));
    process.on("SIGINT", () => shutdown("SIGINT"));
  };
  main().catch((err) => {
    process.stderr.write(
      `verdict ${name} failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exit(1);
  });
}
