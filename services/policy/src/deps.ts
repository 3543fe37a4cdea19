import type { Bus } from "@verdict/bus";
import type { Clock, Logger } from "@verdict/kit";
import type { Outbox } from "@verdict/outbox";
import type { PolicyRepo } from "./repo.js";
import type { ResolutionCache } from "./usecases/resolvePolicies.js";

export interface PolicyDeps {
  repo: PolicyRepo;
  bus: Bus;
  /** Every event that announces a state change is written with it (see @verdict/outbox). */
  outbox: Outbox;
  clock: Clock;
  logger: Logger;
  resolutions: ResolutionCache;
}
