import type { Bus } from "@verdict/bus";
import type { AsyncClient, Clock, Logger } from "@verdict/kit";
import type { Outbox } from "@verdict/outbox";
import type { policyV1 } from "@verdict/proto";
import type { EngineCache } from "./engineCache.js";
import type { EvaluationRepo } from "./repo.js";

/** The organization settings the engine honours (owned by the identity service). */
export interface OrgSettings {
  allowInlineSuppression: boolean;
}

export interface OrgSettingsSource {
  get(organizationId: string): Promise<OrgSettings>;
}

export interface EvaluationLimits {
  /** Requests with at least this many files are evaluated asynchronously. */
  asyncMinFiles: number;
  /** Requests with at least this many bytes of content are evaluated asynchronously. */
  asyncMinBytes: number;
}

export interface EvaluationDeps {
  repo: EvaluationRepo;
  bus: Bus;
  /** Every event that announces a state change is written with it (see @verdict/outbox). */
  outbox: Outbox;
  clock: Clock;
  logger: Logger;
  /** Policies belong to the policy service: asked which ones to run for each evaluation. */
  policy: Pick<AsyncClient<typeof policyV1.PolicyServiceService>, "resolvePolicies">;
  orgSettings: OrgSettingsSource;
  engines: EngineCache;
  limits: EvaluationLimits;
}
