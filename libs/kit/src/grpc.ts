// gRPC plumbing shared by every service: a server with health checking, reflection, metrics,
// tracing and the error trailer; and a promise-based client with deadlines.
import {
  Metadata,
  Server,
  ServerCredentials,
  credentials,
  makeGenericClientConstructor,
  status as GrpcStatus,
  type CallOptions,
  type Client,
  type ServerUnaryCall,
  type ServiceDefinition,
  type ServiceError,
  type UntypedServiceImplementation,
  type sendUnaryData,
} from "@grpc/grpc-js";
import { HealthImplementation, service as healthService } from "grpc-health-check";
import { ReflectionService } from "@grpc/reflection";
import type { PackageDefinition } from "@grpc/proto-loader";
import {
  SpanKind,
  SpanStatusCode,
  context,
  propagation,
  trace as otelTrace,
  type TextMapGetter,
  type TextMapSetter,
} from "@opentelemetry/api";
import { AppError, errors, fromGrpcError, toGrpcError } from "./errors.js";
import type { Logger } from "./logger.js";
import { grpcClientDuration, grpcServerDuration } from "./metrics.js";
import { tracer } from "./telemetry.js";

/** Messages carry whole evaluations (1 MiB per file): well above gRPC's 4 MiB default. */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

const channelOptions = {
  "grpc.max_receive_message_length": MAX_MESSAGE_BYTES,
  "grpc.max_send_message_length": MAX_MESSAGE_BYTES,
};

interface MethodDef {
  path: string;
  requestDeserialize: (b: Buffer) => unknown;
  responseSerialize: (v: never) => Buffer;
}

/** What a handler knows about its call besides the request. */
export interface CallContext {
  /** Aborted when the caller cancels the call or its deadline passes: stop working for it. */
  signal: AbortSignal;
}

/** A service implemented as plain async functions, typed from a ts-proto service definition. */
export type AsyncService<D> = {
  [K in keyof D]: D[K] extends {
    requestDeserialize: (b: Buffer) => infer Req;
    responseSerialize: (v: infer Res) => Buffer;
  }
    ? (req: Req, call: CallContext) => Promise<Res>
    : never;
};

export interface ClientCallOptions {
  timeoutMs?: number;
  /** Aborting it cancels the call (the server's handler sees its signal aborted). */
  signal?: AbortSignal;
}

/** The promise-based client of a service, typed from the same definition. */
export type AsyncClient<D> = {
  [K in keyof D]: D[K] extends {
    requestSerialize: (v: infer Req) => Buffer;
    responseDeserialize: (b: Buffer) => infer Res;
  }
    ? (req: Req, options?: ClientCallOptions) => Promise<Res>
    : never;
};

const metadataGetter: TextMapGetter<Metadata> = {
  keys: (m) => Object.keys(m.getMap()),
  get: (m, key) => {
    const v = m.get(key);
    return v.length ? v.map(String) : undefined;
  },
};
const metadataSetter: TextMapSetter<Metadata> = { set: (m, key, value) => m.set(key, value) };

function grpcCodeName(code: number): string {
  return GrpcStatus[code] ?? String(code);
}

export interface ServiceRegistration<D> {
  /** Fully qualified name, e.g. verdict.policy.v1.PolicyService (health and metrics use it). */
  name: string;
  definition: D;
  implementation: AsyncService<D>;
}

function wrap<D>(reg: ServiceRegistration<D>, logger: Logger): UntypedServiceImplementation {
  const out: UntypedServiceImplementation = {};
  for (const [method, fn] of Object.entries(
    reg.implementation as Record<string, (req: unknown, call: CallContext) => Promise<unknown>>,
  )) {
    out[method] = (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
      const started = process.hrtime.bigint();
      const cancelled = new AbortController();
      call.once("cancelled", () => cancelled.abort());
      const parent = propagation.extract(context.active(), call.metadata, metadataGetter);
      const span = tracer().startSpan(
        `${reg.name}/${method}`,
        { kind: SpanKind.SERVER, attributes: { "rpc.system": "grpc", "rpc.service": reg.name, "rpc.method": method } },
        parent,
      );
      const finish = (code: number) => {
        grpcServerDuration.observe(
          { service: reg.name, method, code: grpcCodeName(code) },
          Number(process.hrtime.bigint() - started) / 1e9,
        );
        span.setAttribute("rpc.grpc.status_code", code);
        span.end();
      };
      context
        .with(otelTrace.setSpan(parent, span), () => fn(call.request, { signal: cancelled.signal }))
        .then((res) => {
          finish(GrpcStatus.OK);
          callback(null, res);
        })
        .catch((err: unknown) => {
          const appErr = err instanceof AppError ? err : undefined;
          if (!appErr) {
            logger.error({ err, method: `${reg.name}/${method}` }, "unhandled error in gRPC handler");
            span.recordException(err as Error);
            span.setStatus({ code: SpanStatusCode.ERROR });
          } else if (appErr.cause !== undefined) {
            // An adapter's failure the caller sees as this AppError (the database did not answer).
            logger.warn({ err: appErr.cause, method: `${reg.name}/${method}` }, appErr.message);
          }
          const grpcErr = toGrpcError(appErr ?? errors.internal());
          finish(grpcErr.code ?? GrpcStatus.INTERNAL);
          callback(grpcErr as ServiceError, null);
        });
    };
  }
  return out;
}

export interface GrpcServerHandle {
  port: number;
  server: Server;
  health: HealthImplementation;
  /** Stops accepting calls, lets in-flight calls finish (up to graceMs), then forces. */
  stop(graceMs?: number): Promise<void>;
}

export async function startGrpcServer(opts: {
  host: string;
  port: number;
  services: ServiceRegistration<unknown>[];
  logger: Logger;
  /** proto-loader definition of every served service, for server reflection. */
  reflection?: PackageDefinition;
}): Promise<GrpcServerHandle> {
  const server = new Server(channelOptions);
  const statusMap: Record<string, "SERVING"> = { "": "SERVING" };
  for (const reg of opts.services) {
    server.addService(reg.definition as ServiceDefinition, wrap(reg, opts.logger));
    statusMap[reg.name] = "SERVING";
  }
  const health = new HealthImplementation(statusMap);
  health.addToServer(server);
  if (opts.reflection) new ReflectionService(opts.reflection).addToServer(server);

  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`${opts.host}:${opts.port}`, ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    );
  });

  return {
    port,
    server,
    health,
    async stop(graceMs = 10_000) {
      for (const name of Object.keys(statusMap)) health.setStatus(name, "NOT_SERVING");
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, graceMs);
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}

/**
 * gRPC's own retry policy (a service config, gRFC A6) for `methods`: a call that fails with
 * UNAVAILABLE (its connection closed under it, as when a pod is stopped in a rolling upgrade) is
 * tried again, up to 4 attempts in all with jittered backoff from 0.25 s to 2 s, within the
 * call's deadline. Only for calls that are safe to repeat: the service may have begun one before
 * the connection dropped.
 */
function retryConfig(definition: Record<string, MethodDef>, methods: readonly string[]): string {
  const name = methods.map((m) => {
    const [, service, method] = /^\/([^/]+)\/([^/]+)$/.exec(definition[m]!.path)!;
    return { service, method };
  });
  return JSON.stringify({
    methodConfig: [
      {
        name,
        retryPolicy: {
          maxAttempts: 4,
          initialBackoff: "0.25s",
          maxBackoff: "2s",
          backoffMultiplier: 2,
          retryableStatusCodes: ["UNAVAILABLE"],
        },
      },
    ],
  });
}

/** What a service answered to the gRPC health protocol, or that it could not be asked. */
export type ServingState = "SERVING" | "NOT_SERVING" | "UNKNOWN" | "UNREACHABLE";

/** Methods every client has besides the service's own. */
export interface ClientControl {
  close(): void;
  /**
   * Asks the service, over this client's own channel, whether it serves (grpc.health.v1 Check
   * for its service name): readiness means this process can reach it, not just that it is up.
   */
  checkHealth(timeoutMs?: number): Promise<ServingState>;
}

const healthCheck = healthService.Check!;

/**
 * A promise-based client for a ts-proto service definition. Errors come back as the AppError
 * the service raised (or SERVICE_UNAVAILABLE when the service cannot be reached in time).
 */
export function createClient<D extends Record<string, MethodDef>>(
  serviceName: string,
  definition: D,
  address: string,
  defaults: {
    timeoutMs?: number;
    /**
     * Methods safe to repeat (reads, checks): a call waits for a connection up to its deadline
     * where others fail at once (gRPC's wait-for-ready), and is tried again when it fails with
     * UNAVAILABLE (retryConfig). What a rolling upgrade needs: a pod that goes away mid-call.
     */
    idempotent?: readonly (keyof D & string)[];
  } = {},
): AsyncClient<D> & ClientControl {
  const Ctor = makeGenericClientConstructor(definition as unknown as ServiceDefinition, serviceName);
  const idempotent = new Set<string>(defaults.idempotent ?? []);
  const options = idempotent.size
    ? { ...channelOptions, "grpc.service_config": retryConfig(definition, [...idempotent]) }
    : channelOptions;
  const client = new Ctor(address, credentials.createInsecure(), options) as Client & Record<string, Function>;
  const out: Record<string, unknown> = {
    close: () => client.close(),
    checkHealth: (timeoutMs = 2_000) =>
      new Promise<ServingState>((resolve) => {
        client.makeUnaryRequest<{ service: string }, { status?: string }>(
          healthCheck.path,
          healthCheck.requestSerialize as (v: { service: string }) => Buffer,
          healthCheck.responseDeserialize as (b: Buffer) => { status?: string },
          { service: serviceName },
          new Metadata(),
          { deadline: Date.now() + timeoutMs },
          (err, res) => {
            if (err || !res) return resolve("UNREACHABLE");
            const s = res.status;
            resolve(s === "SERVING" || s === "NOT_SERVING" ? s : "UNKNOWN");
          },
        );
      }),
  };
  for (const method of Object.keys(definition)) {
    out[method] = (req: unknown, options?: ClientCallOptions) => {
      const timeoutMs = options?.timeoutMs ?? defaults.timeoutMs ?? 10_000;
      const metadata = new Metadata();
      if (idempotent.has(method)) metadata.setOptions({ waitForReady: true });
      const span = tracer().startSpan(`${serviceName}/${method}`, {
        kind: SpanKind.CLIENT,
        attributes: { "rpc.system": "grpc", "rpc.service": serviceName, "rpc.method": method },
      });
      const ctx = otelTrace.setSpan(context.active(), span);
      propagation.inject(ctx, metadata, metadataSetter);
      const callOptions: Partial<CallOptions> = { deadline: Date.now() + timeoutMs };
      const started = process.hrtime.bigint();
      return new Promise((resolve, reject) => {
        const call = (client[method] as Function).call(
          client,
          req,
          metadata,
          callOptions,
          (err: ServiceError | null, res: unknown) => {
            options?.signal?.removeEventListener("abort", cancel);
            const code = err ? err.code : GrpcStatus.OK;
            grpcClientDuration.observe(
              { service: serviceName, method, code: grpcCodeName(code) },
              Number(process.hrtime.bigint() - started) / 1e9,
            );
            span.setAttribute("rpc.grpc.status_code", code);
            span.end();
            if (err) reject(fromGrpcError(err));
            else resolve(res);
          },
        ) as { cancel(): void };
        function cancel() {
          call.cancel();
        }
        if (options?.signal?.aborted) call.cancel();
        else options?.signal?.addEventListener("abort", cancel, { once: true });
      });
    };
  }
  return out as AsyncClient<D> & ClientControl;
}
