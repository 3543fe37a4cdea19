// Messages between all-in-one's main thread and the gateway's thread.
import type { MessagePort } from "node:worker_threads";
import type { MetricsSnapshot } from "@verdict/kit";
import type { GatewayOptions } from "./options.js";

export interface GatewayThreadInput {
  gateway: Omit<GatewayOptions, "bus" | "logger">;
  logLevel: string;
  busPort: MessagePort;
  /** Where the merged Prometheus metrics are served; unset: nowhere. */
  metrics?: { host: string; port: number };
}

export type ToGatewayThread = { kind: "stop" } | { kind: "metrics"; rid: number; snapshot: MetricsSnapshot };

export type FromGatewayThread =
  | { kind: "ready"; port: number; metricsPort?: number }
  | { kind: "failed"; error: string }
  | { kind: "metrics"; rid: number };
