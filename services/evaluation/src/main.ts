// Wires the evaluation service: adapters in, gRPC out. Used by the all-in-one launcher.
import type { Bus } from "@verdict/bus";
import { createClient, startGrpcServer, systemClock, type Clock, type GrpcServerHandle, type Logger } from "@verdict/kit";
import { SERVICE_NAMES, evaluationV1, policyV1, reflectionDefinition } from "@verdict/proto";
import type { Store } from "@verdict/store";
import type { EvaluationDeps } from "./deps.js";
import { evaluationHandlers } from "./grpc.js";
import { EvaluationRepo } from "./repo.js";

export interface EvaluationServiceOptions {
  store: Store;
  bus: Bus;
  logger: Logger;
  host: string;
  port: number;
  /** host:port of the policy service. */
  policyAddress: string;
  clock?: Clock;
}

export interface EvaluationService {
  grpc: GrpcServerHandle;
  stop(): Promise<void>;
}

export async function startEvaluationService(opts: EvaluationServiceOptions): Promise<EvaluationService> {
  const repo = new EvaluationRepo(opts.store);
  await repo.init();
  const policy = createClient(SERVICE_NAMES.policy, policyV1.PolicyServiceService, opts.policyAddress);
  const deps: EvaluationDeps = { repo, bus: opts.bus, clock: opts.clock ?? systemClock, logger: opts.logger, policy };
  const grpc = await startGrpcServer({
    host: opts.host,
    port: opts.port,
    logger: opts.logger,
    services: [{ name: SERVICE_NAMES.evaluation, definition: evaluationV1.EvaluationServiceService, implementation: evaluationHandlers(deps) }],
    reflection: reflectionDefinition("evaluation"),
  });
  opts.logger.info({ port: grpc.port }, "evaluation service listening");
  return {
    grpc,
    async stop() {
      await grpc.stop();
      policy.close();
    },
  };
}
