import type { Bus } from "@verdict/bus";
import type { Clock, Logger } from "@verdict/kit";
import type { Outbox } from "@verdict/outbox";
import type { PolicyRepo } from "./repo.js";
import type { FairPool } from "@verdict/runtime";
import type { PatternBudget } from "./domain/patternBudget.js";
import type { PatternCheckJob, PatternCheckOutcome } from "./patternWorker.js";
import type { ResolutionCache } from "./resolutionCache.js";

export interface PolicyBudgets {
  pattern: PatternBudget;
  /** A pattern whose check (compile, program size, probe scan) takes longer is refused. */
  checkTimeoutMs: number;
  /** Patterns of all an organization's custom policies together. */
  maxPatternsPerOrganization: number;
}

export interface PolicyDeps {
  repo: PolicyRepo;
  bus: Bus;
  /** Every event that announces a state change is written with it (see @verdict/outbox). */
  outbox: Outbox;
  clock: Clock;
  logger: Logger;
  resolutions: ResolutionCache;
  /** Worker threads that compile and measure custom patterns (never the request thread). */
  patternChecks: Pick<FairPool<PatternCheckJob, PatternCheckOutcome>, "run">;
  budgets: PolicyBudgets;
}
