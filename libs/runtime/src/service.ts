// What every gRPC service's start function takes and returns (services/<name>/src/main.ts), and
// the one way such a service runs as its own process (services/<name>/src/bin.ts). A service's
// options extend ServiceBase with what is its own; the all-in-one launcher and the standalone
// process fill the base in, each from its own configuration.
import type { Bus } from "@verdict/bus";
import type { Clock, GrpcServerHandle, Logger } from "@verdict/kit";
import type { Store } from "@verdict/store";
import type { z } from "zod";
import type { grpcServiceConfig } from "./config.js";
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
