// Wires the evaluation service: adapters in, gRPC out, and the bus: it works off queued
// evaluations and drops compiled engines when policies change. Used by the all-in-one launcher.
import { createClient } from "@verdict/kit";
import { SERVICE_NAMES, evaluationV1, identityV1, policyV1 } from "@verdict/proto";
import type { EvaluationDeps, EvaluationLimits } from "./deps.js";
import {
  coreDeps,
  serveGrpc,
  DEFAULT_ORG_MAX_EVALUATIONS_IN_FLIGHT,
  FairPool,
  LOW_PRIORITY_NICENESS,
  workerFile,
  type RunningService,
  type ServiceBase,
} from "@verdict/runtime";
import { policySets } from "./engineCache.js";
import type { ScanJob, ScanOutcome } from "./scanJob.js";
import { WarmEngines } from "./warmEngines.js";
import { evaluationHandlers } from "./grpc.js";
import { identitySettings } from "./orgSettings.js";
import { EvaluationRepo } from "./repo.js";
import { JobFiles } from "./jobFiles.js";
import { subscribeEvaluationConsumers } from "./consumers.js";
import { recoverPending } from "./usecases/recover.js";
import {
  DEFAULT_LIVE_VERIFICATION_PER_MINUTE,
  DEFAULT_LIVE_VERIFICATION_TIMEOUT_MS,
  LiveVerifier,
  type LiveVerifierOptions,
} from "./liveVerifier.js";

export interface EvaluationServiceOptions extends ServiceBase {
  /** host:port of the policy service. */
  policyAddress: string;
  /** host:port of the identity service (organization settings). */
  identityAddress: string;
  limits?: Partial<EvaluationLimits>;
  /**
   * Whether this instance also works off queued evaluations (default true). False makes an
   * API-only instance: it queues large evaluations for the worker instances.
   */
  worker?: boolean;
  /** Scan threads; default: one per core but one. */
  scanWorkers?: number;
  /** Scan threads one organization may hold at once; default: all but one. */
  scanThreadsPerOrganization?: number;
  /**
   * A directory of this instance's own for the contents of queued evaluations (see JobFiles);
   * unset: they are kept in the store, where any instance can read them.
   */
  spoolDir?: string;
  /** Live verification's endpoints and limits (organizations turn it on); default: AWS's endpoint, 5 s, 30 a minute. */
  liveVerification?: Partial<Omit<LiveVerifierOptions, "logger">>;
}

export interface EvaluationService extends RunningService {
  stop(graceMs?: number): Promise<void>;
}

/**
 * When every scan thread has run one job this long (one organization's costly patterns over a
 * large file, which an RE2 call cannot interrupt), an organization holding no thread runs its
 * next scan on the spare thread instead of waiting for them (see FairPool's burstAfterMs). A
 * small change scans in a few milliseconds: another organization's long scan delays it by this.
 */
export const SCAN_BURST_AFTER_MS = 25;

/**
 * A synchronous scan that has run this long while an organization whose scans run much shorter
 * has work runs on at a low CPU priority (its thread is retired after it, as a niceness cannot be
 * lowered again). Long enough that only costly patterns get there, not a large change's ordinary
 * slices: each retirement costs the replacement thread its compiled engines.
 */
export const SCAN_LOW_PRIORITY_AFTER_MS = 1000;

export const DEFAULT_LIMITS: EvaluationLimits = {
  asyncMinFiles: 200,
  asyncMinBytes: 4 * 1024 * 1024,
  // Below the gateway's 60 s call timeout, so the client gets the reason, not a 503.
  syncTimeoutMs: 30_000,
  // The overall bound, waiting for a scan thread included: also below the gateway's 60 s.
  syncMaxWaitMs: 50_000,
  asyncTimeoutMs: 300_000,
  maxInFlightPerOrganization: DEFAULT_ORG_MAX_EVALUATIONS_IN_FLIGHT,
  maxQueuedPerOrganization: 16,
  maxQueuedBytesPerOrganization: 64 * 1024 * 1024,
};

export async function startEvaluationService(opts: EvaluationServiceOptions): Promise<EvaluationService> {
  const core = coreDeps(opts);
  const { outbox } = core;
  const repo = new EvaluationRepo(opts.store, outbox);
  await repo.init();
  const jobs = new JobFiles(repo, opts.spoolDir);
  await jobs.init();
  // The spool is this instance's own and nothing is queued into it yet: what belongs to no
  // pending evaluation is left over from a crash.
  await jobs.sweepSpool(new Set((await repo.pending()).map((e) => e.id)));
  const policy = createClient(SERVICE_NAMES.policy, policyV1.PolicyServiceService, opts.policyAddress);
  const identity = createClient(SERVICE_NAMES.identity, identityV1.IdentityServiceService, opts.identityAddress);
  // Scan threads replacing one terminated at a deadline compile the recent policy sets before
  // they take jobs, while the spare thread takes the next job (see warmEngines.ts).
  const warm = new WarmEngines();
  const scanner = new FairPool<ScanJob, ScanOutcome>({
    filename: workerFile(import.meta.url, "./scanWorker.js"),
    threads: opts.scanWorkers,
    maxThreadsPerKey: opts.scanThreadsPerOrganization,
    spareThreads: 1,
    burstAfterMs: SCAN_BURST_AFTER_MS,
    lowPriorityAfterMs: SCAN_LOW_PRIORITY_AFTER_MS,
    // A's threads terminated at its deadlines but still inside an RE2 call count in its share.
    countTerminatedThreads: true,
    workerData: { warm: warm.buffer },
  });
  // Queued evaluations are background work (nobody waits on the line for them): their scans run
  // on threads of their own, as many, at a low CPU priority, so a 31 MiB change being worked off
  // takes the cores only when the synchronous scans (and the request threads) leave them idle.
  const queuedScanner = new FairPool<ScanJob, ScanOutcome>({
    filename: workerFile(import.meta.url, "./scanWorker.js"),
    name: "queuedScanWorker",
    threads: scanner.threads,
    maxThreadsPerKey: scanner.maxThreadsPerKey,
    niceness: LOW_PRIORITY_NICENESS,
    countTerminatedThreads: true,
    workerData: { warm: warm.buffer },
  });
  const deps: EvaluationDeps = {
    repo,
    jobs,
    ...core,
    policy,
    orgSettings: identitySettings(identity, opts.logger),
    engines: policySets(),
    warm,
    scanner,
    queuedScanner,
    limits: { ...DEFAULT_LIMITS, ...opts.limits },
    verifier: new LiveVerifier({
      timeoutMs: DEFAULT_LIVE_VERIFICATION_TIMEOUT_MS,
      perMinute: DEFAULT_LIVE_VERIFICATION_PER_MINUTE,
      allowPrivate: false,
      ...opts.liveVerification,
      logger: opts.logger,
    }),
  };

  const worker = opts.worker ?? true;
  let stopping = false;
  const subscriptions = await subscribeEvaluationConsumers(deps, opts.bus, { worker, stopping: () => stopping });

  const grpc = await serveGrpc(opts, "evaluation", evaluationV1.EvaluationServiceService, evaluationHandlers(deps));
  outbox.start();
  if (worker) await recoverPending(deps);
  opts.logger.info(
    {
      port: grpc.port,
      worker,
      scan_workers: scanner.threads,
      queued_scan_workers: queuedScanner.threads,
      scan_threads_per_organization: scanner.maxThreadsPerKey,
      async_min_files: deps.limits.asyncMinFiles,
      async_min_bytes: deps.limits.asyncMinBytes,
      max_queued_per_organization: deps.limits.maxQueuedPerOrganization,
      max_queued_bytes_per_organization: deps.limits.maxQueuedBytesPerOrganization,
      spool: opts.spoolDir !== undefined,
    },
    "evaluation service listening",
  );
  return {
    grpc,
    async stop(graceMs?: number) {
      stopping = true;
      // Scans still running when the grace is over are abandoned with their threads: a
      // synchronous caller gets 503, a queued evaluation stays pending and runs after a restart.
      await grpc.stop(graceMs);
      await Promise.all([scanner.close(), queuedScanner.close()]);
      for (const s of subscriptions) await s.unsubscribe();
      await outbox.stop();
      policy.close();
      identity.close();
    },
  };
}
