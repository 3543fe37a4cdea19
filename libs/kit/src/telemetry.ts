// OpenTelemetry tracing. Spans are made explicitly at the two transport edges (HTTP in the
// gateway, gRPC client and server in grpc.ts) and the W3C trace context travels in gRPC
// metadata, so a trace follows a request from the gateway into every service it calls. This
// works the same under ESM and CommonJS because nothing is monkey-patched.
// Off unless OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set.
import { context, propagation, trace, type Tracer } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";

let provider: TracerProvider | undefined;

export function telemetryEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return (
    Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) &&
    env.OTEL_SDK_DISABLED !== "true"
  );
}

/** Starts tracing once per process; later calls are no-ops. Returns whether tracing is on. */
export function startTelemetry(serviceName: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (provider) return true;
  if (!telemetryEnabled(env)) return false;
  provider = new TracerProvider({
    resource: resourceFromAttributes({ "service.name": env.OTEL_SERVICE_NAME ?? serviceName }),
    // The exporter reads OTEL_EXPORTER_OTLP_* (endpoint, headers, timeout) itself.
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter(), scheduledDelayMillis: 500 })],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  return true;
}

export async function stopTelemetry(): Promise<void> {
  if (!provider) return;
  const p = provider;
  provider = undefined;
  await p.forceFlush().catch(() => undefined);
  await p.shutdown().catch(() => undefined);
}

export function tracer(): Tracer {
  return trace.getTracer("verdict");
}
