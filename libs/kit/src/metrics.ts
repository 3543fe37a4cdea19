import { Counter, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/**
 * One Prometheus registry per process. In all-in-one every service shares it and the gateway
 * serves it at /metrics; a standalone service serves it on VERDICT_METRICS_PORT.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: "verdict_" });

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
