// Wires the integrations service: adapters in, gRPC out; it consumes its own change events.
// Used by the all-in-one launcher and by bin.ts.
import { coreDeps, serveService, type RunningService, type ServiceBase } from "@verdict/runtime";
import { createClient, Egress, SecretBox } from "@verdict/kit";
import { SERVICE_NAMES, evaluationV1, identityV1, integrationsV1, policyV1 } from "@verdict/proto";
import { subscribeIntegrationsConsumers } from "./consumers.js";
import { sealContext, type IntegrationsDeps } from "./deps.js";
import { DEFAULT_CHANGE_LIMITS, type ChangeLimits } from "./domain/change.js";
import type { ProviderClient } from "./domain/provider.js";
import { integrationsHandlers } from "./grpc.js";
import { redriveDeliveries } from "./usecases/processChange.js";
import { GiteaClient } from "./providers/gitea/client.js";
import { GiteaInbound } from "./providers/gitea/inbound.js";
import { GitHubClient } from "./providers/github/client.js";
import { gitHubApp, type GitHubApp } from "./providers/github/octokit.js";
import { GitHubInboundVerifier } from "./providers/github/inbound.js";
import { GitLabClient } from "./providers/gitlab/client.js";
import { GitLabInboundVerifier } from "./providers/gitlab/inbound.js";
import { IntegrationsRepo, type ConnectionRecord } from "./repo.js";

export interface IntegrationsServiceOptions extends ServiceBase {
  /** The organization's settings (require_evaluation_pass). */
  identityAddress: string;
  policyAddress: string;
  evaluationAddress: string;
  /** 32 bytes: seals tokens and webhook secrets at rest. */
  masterKey: Buffer;
  limits?: ChangeLimits;
  providerTimeoutMs?: number;
  publicUrl?: string | undefined;
  /** Private addresses providers may be called at (VERDICT_INTEGRATIONS_ALLOW_PRIVATE); default none. */
  allowPrivate?: boolean | readonly string[];
  /** How often unprocessed deliveries are looked for (redriveDeliveries). */
  redriveIntervalMs?: number;
}

const REDRIVE_INTERVAL_MS = 10_000;

/** One answer of a provider's API read at most (a pull request's file listing, a 1 MiB file as base64). */
const MAX_PROVIDER_RESPONSE_BYTES = 32 * 1024 * 1024;

/** GitHub Apps kept at most (one per connection in use); the cache starts over past it. */
const MAX_CACHED_APPS = 1_000;

export type IntegrationsService = RunningService;

export async function startIntegrationsService(opts: IntegrationsServiceOptions): Promise<IntegrationsService> {
  const core = coreDeps(opts);
  const { outbox } = core;
  const repo = new IntegrationsRepo(opts.store, outbox);
  await repo.init();
  const secrets = new SecretBox(opts.masterKey);
  const identity = createClient(SERVICE_NAMES.identity, identityV1.IdentityServiceService, opts.identityAddress, {
    timeoutMs: 10_000,
  });
  const policy = createClient(SERVICE_NAMES.policy, policyV1.PolicyServiceService, opts.policyAddress, {
    timeoutMs: 10_000,
  });
  const evaluation = createClient(
    SERVICE_NAMES.evaluation,
    evaluationV1.EvaluationServiceService,
    opts.evaluationAddress,
    {
      timeoutMs: 60_000,
    },
  );
  const timeoutMs = opts.providerTimeoutMs ?? 15_000;
  // Every call to a provider goes through the SSRF guard: a connection's base URL is the tenant's.
  const egress = new Egress({ allowPrivate: opts.allowPrivate ?? false });
  const fetch = providerFetch(egress, timeoutMs);
  // One GitHub App per connection (and sealed key): its installation tokens are reused across checks.
  const gitHubApps = new Map<string, GitHubApp>();
  const clientFor = (c: ConnectionRecord, hint?: { installationId?: string | undefined }): ProviderClient => {
    const secret = secrets.open(c.token_sealed, sealContext.token(c.id));
    if (c.provider === "github") {
      const credentials = { appId: c.app_id ?? "", privateKey: secret, apiBaseUrl: c.base_url };
      const key = `${c.id}:${c.app_id}:${c.base_url}:${c.token_sealed}`;
      let app = gitHubApps.get(key);
      if (!app) {
        if (gitHubApps.size >= MAX_CACHED_APPS) gitHubApps.clear();
        app = gitHubApp(credentials, fetch);
        gitHubApps.set(key, app);
      }
      return new GitHubClient({
        credentials,
        app,
        ...(hint?.installationId ? { installationId: Number(hint.installationId) } : {}),
        timeoutMs,
      });
    }
    if (c.provider === "gitlab") return new GitLabClient({ baseUrl: c.base_url, token: secret, fetch });
    return new GiteaClient({ baseUrl: c.base_url, token: secret, timeoutMs, fetch });
  };
  const deps: IntegrationsDeps = {
    repo,
    ...core,
    secrets,
    egress,
    fetch,
    clientFor,
    inbound: { gitea: new GiteaInbound(), github: new GitHubInboundVerifier(), gitlab: new GitLabInboundVerifier() },
    evaluation,
    policy,
    identity,
    limits: opts.limits ?? DEFAULT_CHANGE_LIMITS,
    readConcurrency: 8,
    publicUrl: opts.publicUrl,
  };
  const subscriptions = await subscribeIntegrationsConsumers(deps, opts.bus);
  // Deliveries whose processing never ended (this or another instance died mid-check, a service
  // it calls was down past the bus's retries) are taken up again, one sweep at a time.
  let sweeping: Promise<unknown> = Promise.resolve();
  const redrive = setInterval(() => {
    sweeping = sweeping
      .then(() => redriveDeliveries(deps))
      .catch((err: unknown) => opts.logger.warn({ err }, "re-drive of unprocessed deliveries failed"));
  }, opts.redriveIntervalMs ?? REDRIVE_INTERVAL_MS);
  redrive.unref();
  // Deliveries whose event a crash kept from the bus go out once it serves (the outbox starts).
  const service = await serveService(
    opts,
    "integrations",
    integrationsV1.IntegrationsServiceService,
    integrationsHandlers(deps),
    {
      outbox,
      beforeStop: () => {
        clearInterval(redrive);
        return Promise.all(subscriptions.map((s) => s.unsubscribe()));
      },
      drain: () => sweeping,
      release: async () => {
        policy.close();
        evaluation.close();
        identity.close();
      },
    },
  );
  opts.logger.info({ port: service.grpc.port }, "integrations service listening");
  return service;
}

/**
 * fetch through the egress guard, with the provider call's deadline; redirects followed (GET and
 * HEAD, each target checked again) unless the caller says otherwise, as fetch does.
 */
export function providerFetch(egress: Egress, timeoutMs: number): typeof fetch {
  const guarded = egress.fetcher({ timeoutMs, maxResponseBytes: MAX_PROVIDER_RESPONSE_BYTES });
  return (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    return guarded(url, {
      ...(init?.method ? { method: init.method } : {}),
      ...(init?.headers ? { headers: init.headers } : {}),
      ...(init?.body === undefined || init.body === null ? {} : { body: init.body }),
      ...(init?.signal ? { signal: init.signal } : {}),
      redirect: init?.redirect ?? "follow",
    });
  };
}
