import type { Bus } from "@verdict/bus";
import type { Clock, Logger } from "@verdict/kit";
import type { PolicyRepo } from "./repo.js";
import type { ResolutionCache } from "./usecases/resolvePolicies.js";

export interface PolicyDeps {
  repo: PolicyRepo;
  bus: Bus;
  clock: Clock;
  logger: Logger;
  resolutions: ResolutionCache;
}
