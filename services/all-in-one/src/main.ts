#!/usr/bin/env node
// `pnpm start`: Verdict all-in-one.
import { setFlagsFromString } from "node:v8";
import { ConfigError, createLogger } from "@verdict/kit";
import { exitProcess } from "@verdict/runtime";
import { readConfig } from "./config.js";
import { launch } from "./launcher.js";

/**
 * V8 starts a full garbage collection of a thread's heap whenever its buffers (external memory)
 * have grown by 64 MB since the last one. Every evaluation moves its files through several
 * buffers (the HTTP body, the parsed contents, the gRPC message, the scan thread's copy), so on
 * the API path that rule ran a full collection of the services' 50 MB heap every few requests
 * that freed almost nothing: about a quarter of the instance's CPU (docs/performance.md, "Large
 * evaluations: garbage collection"). Counting buffers in the heap's own limit instead collects
 * when memory has really grown (peak RSS about a quarter higher). Set first thing, before any
 * worker thread starts; `--no-external-memory-accounted-in-global-limit` (or the flag itself) on
 * node's command line or in NODE_OPTIONS leaves the choice to it.
 */
function accountBuffersInHeapLimit(): void {
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ""];
  if (given.some((a) => a.includes("external-memory-accounted-in-global-limit"))) return;
  setFlagsFromString("--external-memory-accounted-in-global-limit");
}

async function main(): Promise<void> {
  accountBuffersInHeapLimit();
  let config;
  try {
    config = readConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const logger = createLogger("verdict", config.VERDICT_LOG_LEVEL);
  let running;
  try {
    running = await launch(config, { logger });
  } catch (err) {
    // A problem found while starting (an unreadable webhook master key file) is a config error too.
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  if (running.generatedBootstrapKey) {
    // Printed once, on the first start, to the terminal only (never to the structured logs).
    process.stdout.write(
      `\n  Verdict created the instance operator's API key. It is shown only now; store it safely:\n\n    ${running.generatedBootstrapKey}\n\n` +
        `  Or set VERDICT_BOOTSTRAP_API_KEY to choose the key yourself.\n\n`,
    );
  }
  // After the key: whoever waits for the ready line has the key on screen by then.
  logger.info(
    {
      http_port: running.httpPort,
      grpc_ports: running.grpcPorts,
      ...(running.metricsPort !== undefined ? { metrics_port: running.metricsPort } : {}),
      data_dir: config.dataDir,
    },
    "Verdict is ready",
  );
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down: draining in-flight requests");
    running
      .stop()
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
}

main().catch((err) => {
  process.stderr.write(`Verdict failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
