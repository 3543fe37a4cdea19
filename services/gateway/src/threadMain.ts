// The gateway thread's entry point (see thread.ts): the same startGateway, with the bus and the
// services' metrics reached through the main thread.
import { parentPort, workerData } from "node:worker_threads";
import { PortBus } from "@verdict/bus";
import {
  createLogger,
  mergedMetrics,
  metricsSnapshot,
  startTelemetry,
  stopTelemetry,
  trackEventLoopDelay,
  type MetricsSnapshot,
} from "@verdict/kit";
import { startMetricsServer } from "@verdict/runtime";
import { startGateway } from "./main.js";
import type { FromGatewayThread, GatewayThreadInput, ToGatewayThread } from "./threadProtocol.js";

const input = workerData as GatewayThreadInput;
const main = parentPort!;
const send = (message: FromGatewayThread) => main.postMessage(message);

const logger = createLogger("verdict", input.logLevel).child({ service: "gateway" });
startTelemetry("verdict");
trackEventLoopDelay("gateway");
const bus = new PortBus(input.busPort);

let nextRequest = 0;
const waiting = new Map<number, (snapshot: MetricsSnapshot) => void>();
/** The main thread's metrics: every service of all-in-one runs there. */
const servicesMetrics = () =>
  new Promise<MetricsSnapshot>((resolve) => {
    const rid = ++nextRequest;
    waiting.set(rid, resolve);
    send({ kind: "metrics", rid });
  });

try {
  const gateway = await startGateway({ ...input.gateway, bus, logger });
  const metrics = input.metrics
    ? await startMetricsServer(input.metrics.host, input.metrics.port, async () =>
        mergedMetrics(await Promise.all([metricsSnapshot(), servicesMetrics()])),
      )
    : undefined;
  main.on("message", (message: ToGatewayThread) => {
    if (message.kind === "metrics") {
      waiting.get(message.rid)?.(message.snapshot);
      waiting.delete(message.rid);
      return;
    }
    void (async () => {
      await gateway.stop();
      await metrics?.stop();
      await bus.close();
      await stopTelemetry();
      logger.flush();
      main.close();
    })().catch((err: unknown) => {
      logger.error({ err }, "error while stopping the gateway");
      process.exit(1);
    });
  });
  send({ kind: "ready", port: gateway.port, ...(metrics ? { metricsPort: metrics.port } : {}) });
} catch (err) {
  send({ kind: "failed", error: err instanceof Error ? err.message : String(err) });
  await bus.close();
  main.close();
}
