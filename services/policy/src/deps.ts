import type { Bus } from "@verdict/bus";
import type { Clock, Logger } from "@verdict/kit";
import type { PolicyRepo } from "./repo.js";

export interface PolicyDeps {
  repo: PolicyRepo;
  bus: Bus;
  clock: Clock;
  logger: Logger;
}
