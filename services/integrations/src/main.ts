// Wires the integrations service: adapters in, gRPC out; it consumes its own change events.
// Used by the all-in-one launcher and by bin.ts.
import { coreDeps, serveService, type RunningService, type ServiceBase } from "@verdict/runtime";
import { createClient, SecretBox } from "@verdict/kit";
import { SERVICE_NAMES, evaluationV1, integrationsV1, policyV1 } from "@verdict/proto";
import { subscribeIntegrationsConsumers } from "./consumers.js";
import { sealContext, type IntegrationsDeps } from "./deps.js";
import { DEFAULT_CHANGE_LIMITS, type ChangeLimits } from "./domain/change.js";
import type { ProviderClient } from "./domain/provider.js";
import { integrationsHandlers } from "./grpc.js";
import { GiteaClient } from "./providers/gitea/client.js";
import { GiteaInbound } from "./providers/gitea/inbound.js";
import { GitHubClient } from "./providers/github/client.js";
import { GitHubInboundVerifier } from "./providers/github/inbound.js";
import { IntegrationsRepo, type ConnectionRecord } from "./repo.js";

export interface IntegrationsServiceOptions extends ServiceBase {
  policyAddress: string;
  evaluationAddress: string;
  /** 32 bytes: seals tokens and webhook secrets at rest. */
  masterKey: Buffer;
  limits?: ChangeLimits;
  providerTimeoutMs?: number;
  publicUrl?: string | undefined;
}

export type IntegrationsService = RunningService;

export async function startIntegrationsService(opts: IntegrationsServiceOptions): Promise<IntegrationsService> {
  const core = coreDeps(opts);
  const { outbox } = core;
  const repo = new IntegrationsRepo(opts.store, outbox);
  await repo.init();
  const secrets = new SecretBox(opts.masterKey);
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
  const clientFor = (c: ConnectionRecord, hint?: { installationId?: string | undefined }): ProviderClient => {
    const secret = secrets.open(c.token_sealed, sealContext.token(c.id));
    if (c.provider === "github")
      return new GitHubClient({
        credentials: { appId: c.app_id ?? "", privateKey: secret, apiBaseUrl: c.base_url },
        ...(hint?.installationId ? { installationId: Number(hint.installationId) } : {}),
        timeoutMs,
      });
    return new GiteaClient({ baseUrl: c.base_url, token: secret, timeoutMs });
  };
  const deps: IntegrationsDeps = {
    repo,
    ...core,
    secrets,
    clientFor,
    inbound: { gitea: new GiteaInbound(), github: new GitHubInboundVerifier() },
    evaluation,
    policy,
    limits: opts.limits ?? DEFAULT_CHANGE_LIMITS,
    readConcurrency: 8,
    publicUrl: opts.publicUrl,
  };
  const subscriptions = await subscribeIntegrationsConsumers(deps, opts.bus);
  // Deliveries whose event a crash kept from the bus go out once it serves (the outbox starts).
  const service = await serveService(
    opts,
    "integrations",
    integrationsV1.IntegrationsServiceService,
    integrationsHandlers(deps),
    {
      outbox,
      beforeStop: () => Promise.all(subscriptions.map((s) => s.unsubscribe())),
      release: async () => {
        policy.close();
        evaluation.close();
      },
    },
  );
  opts.logger.info({ port: service.grpc.port }, "integrations service listening");
  return service;
}
