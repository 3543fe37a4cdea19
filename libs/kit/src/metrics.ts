import { monitorEventLoopDelay } from "node:perf_hooks";
import { isMainThread } from "node:worker_threads";
import {
  AggregatorRegistry,
  Counter,
  Gauge,
  Histogram,
  Registry,
  collectDefaultMetrics,
  type MetricObjectWithValues,
  type MetricValue,
} from "prom-client";

/**
 * One Prometheus registry per thread. In all-in-one the services share the main thread's and
 * the gateway, on a thread of its own, serves both merged at /metrics; a standalone service
 * serves its own on VERDICT_METRICS_PORT.
 */
export const registry = new Registry();
// Process metrics (CPU, memory, event loop) come from the main thread only: a worker thread's
// copy would count the same process twice once merged.
if (isMainThread) collectDefaultMetrics({ register: registry, prefix: "verdict_" });

export type MetricsSnapshot = MetricObjectWithValues<MetricValue<string>>[];

/** This thread's metrics, in a form that crosses threads (structured clone). */
export function metricsSnapshot(): Promise<MetricsSnapshot> {
  return registry.getMetricsAsJSON();
}

/** Prometheus text of several threads' metrics: series with equal names and labels add up. */
export async function mergedMetrics(snapshots: MetricsSnapshot[]): Promise<string> {
  return AggregatorRegistry.aggregate(snapshots).metrics();
}

export const httpRequestDuration = new Histogram({
  name: "verdict_http_request_duration_seconds",
  help: "HTTP requests served by the gateway",
  labelNames: ["method", "route", "status"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

export const grpcServerDuration = new Histogram({
  name: "verdict_grpc_server_handling_seconds",
  help: "gRPC calls handled by a Verdict service",
  labelNames: ["service", "method", "code"] as const,
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [registry],
});

export const grpcClientDuration = new Histogram({
  name: "verdict_grpc_client_handling_seconds",
  help: "gRPC calls made to a Verdict service",
  labelNames: ["service", "method", "code"] as const,
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [registry],
});

export const busEvents = new Counter({
  name: "verdict_bus_events_total",
  help: "Events published and handled on the bus",
  labelNames: ["topic", "outcome"] as const,
  registers: [registry],
});

export const workerJobs = new Gauge({
  name: "verdict_worker_jobs",
  help: "Jobs of the worker thread pools (scans, report rendering, pattern checks): running on a thread, or queued for one",
  labelNames: ["pool", "state"] as const,
  registers: [registry],
});

/**
 * The event-loop delay of this thread since the previous scrape (p50, p99, max), labelled with
 * the thread's name: the default metrics cover the main thread only, and in all-in-one the
 * gateway answers requests on a thread of its own. What another tenant's work costs a request
 * thread shows here.
 */
export function trackEventLoopDelay(thread: string): void {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  new Gauge({
    name: "verdict_event_loop_delay_seconds",
    help: "Event-loop delay of a request thread since the previous scrape, by quantile (max: the longest)",
    labelNames: ["thread", "quantile"] as const,
    registers: [registry],
    collect() {
      const seconds = (ns: number) => (Number.isFinite(ns) ? ns / 1e9 : 0);
      this.set({ thread, quantile: "0.5" }, seconds(histogram.percentile(50)));
      this.set({ thread, quantile: "0.99" }, seconds(histogram.percentile(99)));
      this.set({ thread, quantile: "max" }, seconds(histogram.max));
      histogram.reset();
    },
  });
}
