// Wires the identity service: adapters in, gRPC out. Used by the all-in-one launcher and by the
// standalone entry point (bin.ts).
import type { Bus } from "@verdict/bus";
import { createClient, startGrpcServer, systemClock, type Clock, type GrpcServerHandle, type Logger } from "@verdict/kit";
import { SERVICE_NAMES, identityV1, policyV1, reflectionDefinition } from "@verdict/proto";
import type { Store } from "@verdict/store";
import { identityHandlers } from "./grpc.js";
import { IdentityRepo } from "./repo.js";
import { ensureBootstrap } from "./usecases/bootstrap.js";

export interface IdentityServiceOptions {
  store: Store;
  bus: Bus;
  logger: Logger;
  host: string;
  port: number;
  policyAddress: string;
  bootstrapKey?: string;
  clock?: Clock;
}

export interface IdentityService {
  grpc: GrpcServerHandle;
  /** Set on the very first start when no bootstrap key was configured: print it once. */
  generatedBootstrapKey?: string;
  stop(): Promise<void>;
}

export async function startIdentityService(opts: IdentityServiceOptions): Promise<IdentityService> {
  const repo = new IdentityRepo(opts.store);
  await repo.init();
  const policy = createClient(SERVICE_NAMES.policy, policyV1.PolicyServiceService, opts.policyAddress);
  const deps = { repo, bus: opts.bus, clock: opts.clock ?? systemClock, logger: opts.logger, policy };
  const { generatedKey } = await ensureBootstrap(deps, opts.bootstrapKey);
  const grpc = await startGrpcServer({
    host: opts.host,
    port: opts.port,
    logger: opts.logger,
    services: [{ name: SERVICE_NAMES.identity, definition: identityV1.IdentityServiceService, implementation: identityHandlers(deps) }],
    reflection: reflectionDefinition("identity"),
  });
  opts.logger.info({ port: grpc.port }, "identity service listening");
  return {
    grpc,
    ...(generatedKey ? { generatedBootstrapKey: generatedKey } : {}),
    async stop() {
      await grpc.stop();
      policy.close();
    },
  };
}
