// What every gRPC service's start function takes and returns (services/<name>/src/main.ts), and
// the one way such a service runs as its own process (services/<name>/src/bin.ts). A service's
// options extend ServiceBase with what is its own; the all-in-one launcher and the standalone
// process fill the base in, each from its own configuration.
import type { Bus } from "@verdict/bus";
import {
  startGrpcServer,
  systemClock,
  type AsyncService,
  type Clock,
  type GrpcServerHandle,
  type Logger,
} from "@verdict/kit";
import { Outbox } from "@verdict/outbox";
import { SERVICE_NAMES, reflectionDefinition } from "@verdict/proto";
import type { Store } from "@verdict/store";
import type { z } from "zod";
import type { grpcServiceConfig } from "./config.js";
import type { GrpcServiceName } from "./ports.js";
import { runProcess, type RunContext } from "./process.js";

/** The adapters and the listening address of a gRPC service. */
export interface ServiceBase {
  store: Store;
  bus: Bus;
  logger: Logger;
  host: string;
  /** 0: a free port. */
  port: number;
  /** The clock its use cases read (tests move it to check expiry); default: the system clock. */
  clock?: Clock;
}

/** A started gRPC service. */
export interface RunningService {
  grpc: GrpcServerHandle;
  stop(): Promise<void>;
}

/** What every service's deps start with: its bus and logger, its clock, and an outbox on the bus. */
export interface CoreDeps {
  bus: Bus;
  /** Publishes the events written with each state change, and sweeps up those a crash left behind. */
  outbox: Outbox;
  clock: Clock;
  logger: Logger;
}

export function coreDeps(base: ServiceBase): CoreDeps {
  return {
    bus: base.bus,
    outbox: new Outbox({ bus: base.bus, logger: base.logger }),
    clock: base.clock ?? systemClock,
    logger: base.logger,
  };
}

/**
 * Serves one service's gRPC API on the base's host and port, with gRPC health checking (the
 * service's own name and "") and server reflection of its proto files.
 */
export function serveGrpc<D>(
  base: Pick<ServiceBase, "host" | "port" | "logger">,
  name: GrpcServiceName,
  definition: D,
  implementation: AsyncService<D>,
): Promise<GrpcServerHandle> {
  return startGrpcServer({
    host: base.host,
    port: base.port,
    logger: base.logger,
    services: [{ name: SERVICE_NAMES[name], definition, implementation }],
    reflection: reflectionDefinition(name),
  });
}

/** How a service stops, around its gRPC server's drain and its outbox. */
export interface ServiceStopping {
  /** Publishes the events written with each state change: started once the server serves. */
  outbox: { start(): void; stop(): Promise<void> };
  /** Before the server drains: what brings in new work (bus consumers, timers) stops. */
  beforeStop?: () => Promise<unknown>;
  /** Alongside beforeStop and the drain (work the service started on its own); the outbox waits for it. */
  drain?: () => Promise<unknown>;
  /** Once the outbox has stopped: the threads and clients the service opened close. */
  release?: () => Promise<unknown>;
}

/**
 * Stops a service in the order ServiceStopping describes: `beforeStop`, then the server's drain
 * (`drain` alongside both), the outbox, then `release`. Without a server (it never started), the
 * same steps undo what the service had started, so no consumer, thread or client is left behind.
 */
export async function stopService(stopping: ServiceStopping, grpc?: GrpcServerHandle, graceMs?: number): Promise<void> {
  await Promise.all([
    stopping.drain?.(),
    (async () => {
      await stopping.beforeStop?.();
      await grpc?.stop(graceMs);
    })(),
  ]);
  await stopping.outbox.stop();
  await stopping.release?.();
}

/**
 * serveGrpc, then the outbox starts; the service stops with stopService. A server that cannot
 * start (its port taken, say) stops what the service had started before the error is thrown.
 */
export async function serveService<D>(
  base: ServiceBase,
  name: GrpcServiceName,
  definition: D,
  implementation: AsyncService<D>,
  stopping: ServiceStopping,
): Promise<RunningService> {
  let grpc: GrpcServerHandle;
  try {
    grpc = await serveGrpc(base, name, definition, implementation);
  } catch (err) {
    await stopService(stopping);
    throw err;
  }
  stopping.outbox.start();
  return { grpc, stop: () => stopService(stopping, grpc) };
}

type GrpcProcessConfig = z.infer<ReturnType<typeof grpcServiceConfig>>;

/**
 * Runs one gRPC service as a process (runProcess): opens the Store, starts the service on
 * VERDICT_GRPC_HOST:VERDICT_GRPC_PORT with the configured adapters, logs `<name> ready` with its
 * `grpc_port`, and on SIGTERM or SIGINT stops it before the bus and the store are closed.
 * `start` adds what is the service's own to `base`.
 */
export function runGrpcService<S extends ReturnType<typeof grpcServiceConfig>>(
  name: string,
  schema: S,
  start: (base: ServiceBase, ctx: RunContext<z.infer<S>>) => Promise<RunningService>,
): void {
  runProcess(name, schema, async (ctx) => {
    const config: GrpcProcessConfig = ctx.config;
    const base = {
      store: await ctx.store(),
      bus: ctx.bus,
      logger: ctx.logger,
      host: config.VERDICT_GRPC_HOST,
      port: config.VERDICT_GRPC_PORT,
    };
    const service = await start(base, ctx);
    return { ready: { grpc_port: service.grpc.port }, stop: () => service.stop() };
  });
}
