// Wires the policy service: adapters in, gRPC out. Used by the all-in-one launcher.
import { policyV1 } from "@verdict/proto";
import { coreDeps, serveService, FairPool, workerFile, type RunningService, type ServiceBase } from "@verdict/runtime";
import { subscribePolicyConsumers } from "./consumers.js";
import type { PolicyBudgets, PolicyDeps } from "./deps.js";
import { DEFAULT_BUDGETS } from "./config.js";
import type { PatternCheckJob, PatternCheckOutcome } from "./patternWorker.js";
import { ResolutionCache } from "./resolutionCache.js";
import { policyHandlers } from "./grpc.js";
import { PolicyRepo } from "./repo.js";

export interface PolicyServiceOptions extends ServiceBase {
  budgets?: Partial<PolicyBudgets>;
  /** Threads that check custom patterns (rare work: default one). */
  patternWorkers?: number;
}

export type PolicyService = RunningService;

export async function startPolicyService(opts: PolicyServiceOptions): Promise<PolicyService> {
  const core = coreDeps(opts);
  const { outbox } = core;
  const repo = new PolicyRepo(opts.store, outbox);
  await repo.init();
  const patternChecks = new FairPool<PatternCheckJob, PatternCheckOutcome>({
    filename: workerFile(import.meta.url, "./patternWorker.js"),
    threads: opts.patternWorkers ?? 1,
  });
  const deps: PolicyDeps = {
    repo,
    ...core,
    resolutions: new ResolutionCache(),
    patternChecks,
    budgets: { ...DEFAULT_BUDGETS, ...opts.budgets },
  };
  const subscriptions = await subscribePolicyConsumers(deps, opts.bus);
  const service = await serveService(opts, "policy", policyV1.PolicyServiceService, policyHandlers(deps), {
    outbox,
    beforeStop: () => Promise.all(subscriptions.map((s) => s.unsubscribe())),
    release: () => patternChecks.close(),
  });
  opts.logger.info({ port: service.grpc.port }, "policy service listening");
  return service;
}
