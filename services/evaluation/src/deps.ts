import type { Bus } from "@verdict/bus";
import type { AsyncClient, Clock, Logger } from "@verdict/kit";
import type { Outbox } from "@verdict/outbox";
import type { policyV1 } from "@verdict/proto";
import type { FairPool } from "@verdict/runtime";
import type { EngineCache, PolicySet } from "./engineCache.js";
import type { ScanJob, ScanOutcome } from "./scanJob.js";
import type { WarmEngines } from "./warmEngines.js";
import type { EvaluationRepo } from "./repo.js";
import type { JobFiles } from "./jobFiles.js";
import type { LiveVerifier } from "./liveVerifier.js";

/** The organization settings the engine honours (owned by the identity service). */
export interface OrgSettings {
  allowInlineSuppression: boolean;
  /** Evaluations must name a repository connected through a provider connection. */
  requireConnectedRepository: boolean;
  /** Opt-in: the providers asked whether a credential an evaluation found works. */
  liveVerification: { enabled: boolean; providers: string[] };
}

export interface OrgSettingsSource {
  get(organizationId: string): Promise<OrgSettings>;
}

export interface EvaluationLimits {
  /** Requests with at least this many files are evaluated asynchronously. */
  asyncMinFiles: number;
  /** Requests with at least this many bytes of content are evaluated asynchronously. */
  asyncMinBytes: number;
  /**
   * A synchronous evaluation fails (EVALUATION_TIMEOUT) when its scan has run this long on the
   * scan threads (time spent waiting for a thread does not count).
   */
  syncTimeoutMs: number;
  /** A synchronous evaluation is given up (503) when not done this long after it was received, waiting included. */
  syncMaxWaitMs: number;
  /** A queued evaluation fails (status failed) when its scan has not finished this long after it started. */
  asyncTimeoutMs: number;
  /** Evaluations of one organization scanning or waiting for a thread at once; more answer 429. */
  maxInFlightPerOrganization: number;
  /** Queued evaluations one organization may have waiting or scanning; one more answers 429. */
  maxQueuedPerOrganization: number;
  /** Bytes of content one organization's queued evaluations may hold; more answer 429. */
  maxQueuedBytesPerOrganization: number;
}

export interface EvaluationDeps {
  repo: EvaluationRepo;
  /** The files of queued evaluations (in the store, or spooled to files off the thread). */
  jobs: JobFiles;
  bus: Bus;
  /** Every event that announces a state change is written with it (see @verdict/outbox). */
  outbox: Outbox;
  clock: Clock;
  logger: Logger;
  /**
   * Policies and repositories belong to the policy service: asked which policies to run for each
   * evaluation, and which repositories are connected when the organization requires that.
   */
  policy: Pick<AsyncClient<typeof policyV1.PolicyServiceService>, "resolvePolicies" | "listRepositories">;
  orgSettings: OrgSettingsSource;
  /** The policies of each version (compiled only on the scan threads). */
  engines: EngineCache<PolicySet>;
  /** The worker threads that scan, shared fairly between organizations. */
  scanner: Pick<FairPool<ScanJob, ScanOutcome>, "run" | "inFlight">;
  /** The threads that scan queued evaluations (at a low CPU priority); the scanner when absent. */
  queuedScanner?: Pick<FairPool<ScanJob, ScanOutcome>, "run">;
  /** The policy sets a new scan thread compiles before it takes jobs; none when absent. */
  warm?: WarmEngines;
  limits: EvaluationLimits;
  /** Asks providers whether found credentials work (organizations that turned it on); absent: never asked. */
  verifier?: Pick<LiveVerifier, "admit" | "verify">;
}
