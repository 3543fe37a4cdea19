// Wires the compliance service: adapters in, gRPC out, and the bus: it keeps the evidence
// projection from evaluation events and generates requested reports.
import { InProcessBus, type Subscription } from "@verdict/bus";
import { AppError, createClient } from "@verdict/kit";
import { SERVICE_NAMES, complianceV1, identityV1, policyV1 } from "@verdict/proto";
import {
  coreDeps,
  serveService,
  stopService,
  FairPool,
  LOW_PRIORITY_NICENESS,
  workerFile,
  type RunningService,
  type ServiceBase,
  type ServiceStopping,
} from "@verdict/runtime";
import type { PolicyScope } from "./domain/applicability.js";
import { CATALOGS } from "./domain/catalogs/index.js";
import type { Catalog } from "./domain/catalogs/types.js";
import type { ComplianceDeps, OrganizationSource, PolicySource } from "./deps.js";
import { subscribeCompliance } from "./consumers.js";
import { complianceHandlers } from "./grpc.js";
import type { RenderJob } from "./renderWorker.js";
import { ComplianceRepo } from "./repo.js";
import { loadReportKey } from "./domain/reportKey.js";
import { TriageRepo } from "./triageRepo.js";
import { announceExpiredRisks } from "./usecases/expireTriage.js";
import { failStaleReports } from "./usecases/failReport.js";

export interface ComplianceServiceOptions extends ServiceBase {
  policyAddress: string;
  identityAddress: string;
  /** HMAC key of the signed download links. */
  signingKey: string;
  /** Ed25519 private key (PKCS#8 PEM) that signs report files. */
  reportPrivateKey: string;
  /** Validity of a download link, in seconds. */
  linkTtlSeconds: number;
  /** Public base URL of the REST API (…/v1), read when a link or an evidence href is made. */
  apiBaseUrl: () => string;
  catalogs?: readonly Catalog[];
  /** Report worker threads (default 1). */
  reportWorkers?: number;
  /** A report still generating after this long is failed (default ten minutes); its rendering stops then too. */
  reportTimeoutMs?: number;
  /** How often expired accepted risks are looked for and announced (default a minute). */
  triageExpiryIntervalMs?: number;
}

export type ComplianceService = RunningService;

type PolicyClient = ReturnType<typeof createClient<typeof policyV1.PolicyServiceService>>;
type IdentityClient = ReturnType<typeof createClient<typeof identityV1.IdentityServiceService>>;

/** Policies with their frameworks from ListPolicies; rule ids of enabled ones from ResolvePolicies. */
/** Which files a resolved policy could apply to (domain/applicability.ts). */
function resolvedScope(p: policyV1.ResolvedPolicy): PolicyScope {
  return { file_scope: p.file_scope, rule_paths: p.patterns.map((x) => x.paths), exclude_paths: p.exclude_paths };
}

export function policySource(client: PolicyClient): PolicySource {
  return {
    async list(organizationId) {
      const [{ policies }, resolved] = await Promise.all([
        client.listPolicies({ organization_id: organizationId }),
        client.resolvePolicies({ organization_id: organizationId, policy_ids: [] }),
      ]);
      // Only enabled policies resolve: they alone have rules and a scope (evidence needs both).
      const byId = new Map(resolved.policies.map((p) => [p.id, p]));
      return policies.map((p) => {
        const r = byId.get(p.id);
        return {
          id: p.id,
          name: p.name,
          enabled: p.enabled,
          severity: p.severity,
          frameworks: p.frameworks,
          rules: r ? [...new Set(r.patterns.map((x) => x.rule_id).filter((x) => x !== ""))] : [],
          ...(r ? { scope: resolvedScope(r) } : {}),
        };
      });
    },
  };
}

export function organizationSource(client: IdentityClient): OrganizationSource {
  return {
    async profile(organizationId) {
      try {
        const { organization } = await client.getOrganization({ organization_id: organizationId });
        return {
          name: organization?.name || organizationId,
          systemDescription: organization?.settings?.system_description ?? "",
          reportScope: organization?.settings?.report_scope ?? "",
        };
      } catch (err) {
        if (err instanceof AppError && err.kind === "not_found")
          return { name: organizationId, systemDescription: "", reportScope: "" };
        throw err;
      }
    },
  };
}

export const DEFAULT_REPORT_TIMEOUT_MS = 600_000;
export const DEFAULT_TRIAGE_EXPIRY_INTERVAL_MS = 60_000;

/**
 * Reports whose generation was cut short would stay "generating" forever. With the in-process
 * bus, a report left generating by an earlier process can never finish (its request event died
 * with that process): at start-up every one fails. Otherwise (Kafka redelivers the request to
 * another consumer) only those older than the timeout do.
 */
export async function sweepStaleReports(
  deps: ComplianceDeps,
  timeoutMs: number,
  interruptedOnStart: boolean,
): Promise<void> {
  const now = deps.clock.now();
  if (interruptedOnStart) {
    const n = await failStaleReports(deps, {
      cutoff: now,
      reason: "Generation was interrupted: Verdict stopped before the report was finished; request it again",
    });
    if (n) deps.logger.warn({ reports: n }, "failed the reports an earlier process left generating");
  }
  const minutes = Math.round(timeoutMs / 60_000);
  await failStaleReports(deps, {
    cutoff: new Date(now.getTime() - timeoutMs),
    reason: `Generation did not finish within ${minutes >= 1 ? `${minutes} minute${minutes === 1 ? "" : "s"}` : timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} seconds` : `${timeoutMs} ms`}; request it again`,
  });
}

export async function startComplianceService(opts: ComplianceServiceOptions): Promise<ComplianceService> {
  const core = coreDeps(opts);
  const { outbox } = core;
  const repo = new ComplianceRepo(opts.store, outbox);
  await repo.init();
  const triage = new TriageRepo(opts.store, outbox);
  await triage.init();
  const policy = createClient(SERVICE_NAMES.policy, policyV1.PolicyServiceService, opts.policyAddress);
  const identity = createClient(SERVICE_NAMES.identity, identityV1.IdentityServiceService, opts.identityAddress);
  // Reports are generated in the background (the request answered 202): their rendering runs at
  // a low CPU priority, so a PDF of every framework takes the cores only when the request threads
  // and the scans leave them idle.
  const renderer = new FairPool<RenderJob, Uint8Array>({
    filename: workerFile(import.meta.url, "./renderWorker.js"),
    threads: opts.reportWorkers ?? 1,
    niceness: LOW_PRIORITY_NICENESS,
  });
  const deps: ComplianceDeps = {
    repo,
    triage,
    ...core,
    catalogs: opts.catalogs ?? CATALOGS,
    policies: policySource(policy),
    organizations: organizationSource(identity),
    links: { signingKey: opts.signingKey, ttlSeconds: opts.linkTtlSeconds, apiBaseUrl: opts.apiBaseUrl },
    reports: {
      renderer,
      timeoutMs: opts.reportTimeoutMs ?? DEFAULT_REPORT_TIMEOUT_MS,
      key: loadReportKey(opts.reportPrivateKey),
    },
  };
  const subscriptions: Subscription[] = [];
  let sweeper: NodeJS.Timeout | undefined;
  let expirySweeper: NodeJS.Timeout | undefined;
  let expiring: Promise<unknown> = Promise.resolve();
  const stopping: ServiceStopping = {
    outbox,
    beforeStop: async () => {
      clearInterval(sweeper);
      clearInterval(expirySweeper);
      await expiring;
      for (const s of subscriptions) await s.unsubscribe();
    },
    release: async () => {
      await renderer.close();
      policy.close();
      identity.close();
    },
  };
  try {
    await sweepStaleReports(deps, opts.reportTimeoutMs ?? DEFAULT_REPORT_TIMEOUT_MS, opts.bus instanceof InProcessBus);
    sweeper = setInterval(
      () => {
        sweepStaleReports(deps, opts.reportTimeoutMs ?? DEFAULT_REPORT_TIMEOUT_MS, false).catch((err) =>
          deps.logger.error({ err }, "could not fail stale reports; retrying"),
        );
      },
      Math.min(60_000, Math.max(1_000, Math.floor((opts.reportTimeoutMs ?? DEFAULT_REPORT_TIMEOUT_MS) / 2))),
    );
    sweeper.unref();
    // One expiry sweep at a time in this process (replicas are safe: each expiry is claimed once).
    let running = false;
    expirySweeper = setInterval(() => {
      if (running) return;
      running = true;
      expiring = announceExpiredRisks(deps)
        .catch((err) => deps.logger.error({ err }, "could not announce expired accepted risks; retrying"))
        .finally(() => (running = false));
    }, opts.triageExpiryIntervalMs ?? DEFAULT_TRIAGE_EXPIRY_INTERVAL_MS);
    expirySweeper.unref();
    subscriptions.push(...(await subscribeCompliance(deps)));
  } catch (err) {
    await stopService(stopping);
    throw err;
  }
  const service = await serveService(
    opts,
    "compliance",
    complianceV1.ComplianceServiceService,
    complianceHandlers(deps),
    stopping,
  );
  opts.logger.info({ port: service.grpc.port, catalogs: deps.catalogs.length }, "compliance service listening");
  return service;
}
