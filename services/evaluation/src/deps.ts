import type { Bus } from "@verdict/bus";
import type { AsyncClient, Clock, Logger } from "@verdict/kit";
import type { policyV1 } from "@verdict/proto";
import type { EvaluationRepo } from "./repo.js";

export interface EvaluationDeps {
  repo: EvaluationRepo;
  bus: Bus;
  clock: Clock;
  logger: Logger;
  /** Policies belong to the policy service: asked which ones to run for each evaluation. */
  policy: Pick<AsyncClient<typeof policyV1.PolicyServiceService>, "resolvePolicies">;
}
