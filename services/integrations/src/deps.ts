import type { Bus } from "@verdict/bus";
import type { AsyncClient, Clock, Egress, Logger, SecretBox } from "@verdict/kit";
import type { Outbox } from "@verdict/outbox";
import type { evaluationV1, identityV1, policyV1 } from "@verdict/proto";
import type { ChangeLimits } from "./domain/change.js";
import type { InboundVerifier, ProviderClient, ProviderKind } from "./domain/provider.js";
import type { ConnectionRecord, IntegrationsRepo } from "./repo.js";

export interface IntegrationsDeps {
  repo: IntegrationsRepo;
  bus: Bus;
  outbox: Outbox;
  clock: Clock;
  logger: Logger;
  /** Seals tokens and webhook secrets at rest. */
  secrets: SecretBox;
  /** The SSRF guard every provider call goes through: a connection's base URL must pass it. */
  egress: Pick<Egress, "refuses">;
  /**
   * fetch through that guard (each address checked as it is connected to, redirects too), with
   * the provider call's deadline and a cap on the answer: for calls made without a connection's
   * client (the GitHub App manifest's code conversion).
   */
  fetch: typeof fetch;
  /**
   * A provider's API client for a connection (its token opened). installationId: the GitHub App
   * installation an inbound event named (else the client looks the repository's up).
   */
  clientFor(connection: ConnectionRecord, hint?: { installationId?: string | undefined }): ProviderClient;
  /** Checks and reads a provider's inbound deliveries. */
  inbound: Partial<Record<ProviderKind, InboundVerifier>>;
  evaluation: AsyncClient<typeof evaluationV1.EvaluationServiceService>;
  policy: AsyncClient<typeof policyV1.PolicyServiceService>;
  /** The organization's settings: whether a failed evaluation blocks (require_evaluation_pass). */
  identity: AsyncClient<typeof identityV1.IdentityServiceService>;
  limits: ChangeLimits;
  /** Files read from the provider at once. */
  readConcurrency: number;
  /** Verdict's public URL, for the link to an evaluation; unset: no link. */
  publicUrl?: string | undefined;
}

/** The contexts the sealed secrets are bound to (a sealed token cannot pass for a secret). */
export const sealContext = {
  token: (id: string) => `integrations.token:${id}`,
  webhookSecret: (id: string) => `integrations.webhook_secret:${id}`,
};
