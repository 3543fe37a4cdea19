// A real evaluation service wired to a real policy service: one in-memory SQLite store, the
// in-process bus, both on free loopback ports, and clients talking gRPC to them.
// The policy service is imported from its sources: tests are the only place this package
// needs it, and the launcher wires the two the same way.
import { createClient, createLogger, type Clock } from "@verdict/kit";
import { SERVICE_NAMES, evaluationV1 } from "@verdict/proto";
import { startPolicyHarness, type PolicyHarness } from "../../policy/test/harness.js";
import { startIdentityService, type IdentityService } from "../../identity/src/main.js";
import { Outbox } from "@verdict/outbox";
import { startEvaluationService, type EvaluationService, type EvaluationServiceOptions } from "../src/main.js";
import { EvaluationRepo } from "../src/repo.js";

export type EvaluationClient = ReturnType<typeof createClient<typeof evaluationV1.EvaluationServiceService>>;

export interface EvaluationHarness {
  policy: PolicyHarness;
  identity: IdentityService;
  service: EvaluationService;
  client: EvaluationClient;
  /** The service's repository on the same store: what it stored, read the way it reads it. */
  repo: EvaluationRepo;
  stop(): Promise<void>;
}

export async function startEvaluationHarness(
  opts: {
    clock?: Clock;
    limits?: EvaluationServiceOptions["limits"];
    /** Other options of the evaluation service (a spool directory, an API-only instance). */
    service?: Pick<EvaluationServiceOptions, "spoolDir" | "worker">;
  } = {},
): Promise<EvaluationHarness> {
  const policy = await startPolicyHarness();
  const identity = await startIdentityService({
    store: policy.store,
    bus: policy.bus,
    logger: createLogger("identity-test", "silent"),
    host: "127.0.0.1",
    port: 0,
    policyAddress: policy.address,
  });
  const service = await startEvaluationService({
    store: policy.store,
    bus: policy.bus,
    logger: createLogger("evaluation-test", "silent"),
    host: "127.0.0.1",
    port: 0,
    policyAddress: policy.address,
    identityAddress: `127.0.0.1:${identity.grpc.port}`,
    ...(opts.limits ? { limits: opts.limits } : {}),
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...opts.service,
  });
  const client = createClient(
    SERVICE_NAMES.evaluation,
    evaluationV1.EvaluationServiceService,
    `127.0.0.1:${service.grpc.port}`,
  );
  const repo = new EvaluationRepo(
    policy.store,
    new Outbox({ bus: policy.bus, logger: createLogger("repo-test", "silent") }),
  );
  return {
    policy,
    identity,
    service,
    client,
    repo,
    async stop() {
      client.close();
      await service.stop();
      await identity.stop();
      await policy.stop();
    },
  };
}

/** A clock tests move by hand; it starts at the real time so ids stay in creation order. */
export class ManualClock implements Clock {
  private ms = Date.now();
  now(): Date {
    return new Date(this.ms);
  }
  advance(ms: number): Date {
    this.ms += ms;
    return this.now();
  }
}
