// All-in-one runs the gateway on a worker thread of its own, so that HTTP, JSON parsing and
// validation use a second core while the services' thread matches files. Nothing else changes:
// the gateway reaches the services over gRPC on loopback as always. What it shares with the
// services' thread crosses by message: the bus (key revocations clear the auth cache) through
// a MessageChannel, and the services' metrics, merged into /metrics on the metrics port.
import { MessageChannel, Worker } from "node:worker_threads";
import { serveBus, type Bus } from "@verdict/bus";
import { metricsSnapshot } from "@verdict/kit";
import { workerFile } from "@verdict/runtime";
import type { GatewayOptions } from "./options.js";
import type { FromGatewayThread, GatewayThreadInput, ToGatewayThread } from "./threadProtocol.js";

export interface GatewayThreadOptions extends Omit<GatewayOptions, "bus" | "logger"> {
  /** Serves the merged metrics of every thread at /metrics here (never on the API port). */
  metrics?: { host: string; port: number };
  /** The bus the gateway subscribes to, served across the thread boundary. */
  bus: Bus;
  /** Log level of the thread's logger (its lines carry `service: "gateway"`). */
  logLevel: string;
  /** Called if the thread dies after it started: all-in-one cannot serve without it. */
  onCrash(err: Error): void;
}

export interface GatewayThread {
  port: number;
  /** The metrics port, when metrics are served. */
  metricsPort?: number;
  stop(): Promise<void>;
}

export async function startGatewayThread(opts: GatewayThreadOptions): Promise<GatewayThread> {
  const { bus, logLevel, onCrash, metrics, ...gateway } = opts;
  const { port1, port2 } = new MessageChannel();
  const stopServing = serveBus(bus, port1);
  const input: GatewayThreadInput = { gateway, logLevel, busPort: port2, ...(metrics ? { metrics } : {}) };
  // The thread runs the built file even when this module runs from its source (tests).
  const worker = new Worker(workerFile(import.meta.url, "./threadMain.js"), {
    workerData: input,
    transferList: [port2],
  });
  const send = (message: ToGatewayThread) => worker.postMessage(message);

  let stopping = false;
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  const ready = await new Promise<{ port: number; metricsPort?: number }>((resolve, reject) => {
    worker.on("message", (message: FromGatewayThread) => {
      switch (message.kind) {
        case "ready":
          return resolve(message);
        case "failed":
          return reject(new Error(message.error));
        case "metrics":
          return void metricsSnapshot().then((snapshot) => send({ kind: "metrics", rid: message.rid, snapshot }));
      }
    });
    worker.on("error", (err) => {
      reject(err);
      if (!stopping) onCrash(err);
    });
    void exited.then(() => {
      const err = new Error("the gateway thread exited");
      reject(err);
      if (!stopping) onCrash(err);
    });
  }).catch(async (err: unknown) => {
    stopping = true;
    await worker.terminate();
    await stopServing();
    throw err;
  });

  return {
    port: ready.port,
    ...(ready.metricsPort !== undefined ? { metricsPort: ready.metricsPort } : {}),
    async stop() {
      if (stopping) return;
      stopping = true;
      // The thread drains its HTTP server and closes its side of the bus, then ends.
      send({ kind: "stop" });
      await exited;
      await stopServing();
    },
  };
}
