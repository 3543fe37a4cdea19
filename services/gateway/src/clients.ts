import { createClient, type AsyncClient, type ServingState } from "@verdict/kit";
import {
  SERVICE_NAMES,
  complianceV1,
  evaluationV1,
  identityV1,
  integrationsV1,
  policyV1,
  webhooksV1,
} from "@verdict/proto";
import type { EncodedCreateEvaluation } from "./http/evaluationWire.js";

export interface Clients {
  identity: AsyncClient<typeof identityV1.IdentityServiceService>;
  policy: AsyncClient<typeof policyV1.PolicyServiceService>;
  evaluation: AsyncClient<typeof evaluationService>;
  compliance: AsyncClient<typeof complianceV1.ComplianceServiceService>;
  webhooks: AsyncClient<typeof webhooksV1.WebhookServiceService>;
  /** Unset where the integrations service is not deployed (a distributed install without it). */
  integrations: AsyncClient<typeof integrationsV1.IntegrationsServiceService> | undefined;
  /**
   * Each service's answer to the gRPC health check, asked over the very channels requests use
   * (GET /v1/health/ready): the gateway is ready when every one is SERVING.
   */
  readiness(timeoutMs?: number): Promise<Partial<Record<keyof ServiceAddresses, ServingState>>>;
}

export interface ServiceAddresses {
  identity: string;
  policy: string;
  evaluation: string;
  compliance: string;
  webhooks: string;
  /** Unset: not deployed; its routes answer 503 and readiness leaves it out. */
  integrations?: string | undefined;
}

const generated = evaluationV1.EvaluationServiceService;

/**
 * The evaluation service's definition, but for the create request: it carries every file's
 * content (up to 30 MiB), and is taken already encoded, once, when its body was read (its
 * encoding is written at its exact size, where the generated encoder grows and copies), and gRPC
 * gets the bytes as they are.
 */
const evaluationService = {
  ...generated,
  createEvaluation: {
    ...generated.createEvaluation,
    requestSerialize: (value: EncodedCreateEvaluation): Buffer =>
      Buffer.from(value.bytes.buffer, value.bytes.byteOffset, value.bytes.byteLength),
  },
};

export function connectClients(addr: ServiceAddresses): Clients & { close(): void } {
  // Every request's credential check waits for a connection to identity and is retried when its
  // connection closes under it (a pod replaced in a rolling upgrade answered 503 without): a check
  // changes nothing but a last-used time, so repeating one is safe.
  const identity = createClient(SERVICE_NAMES.identity, identityV1.IdentityServiceService, addr.identity, {
    timeoutMs: 5_000,
    idempotent: ["verifyKey", "verifyAccessToken", "verifySession"],
  });
  // Creating or testing a custom policy checks each pattern on the pattern-check threads, each up
  // to VERDICT_PATTERN_CHECK_TIMEOUT_MS: a policy of several costly patterns takes seconds, more on
  // a loaded machine (three heavy patterns took over 10 s at load 20-40 and the gateway, giving up
  // first, answered 503 for a policy the service went on to check).
  const policy = createClient(SERVICE_NAMES.policy, policyV1.PolicyServiceService, addr.policy, { timeoutMs: 60_000 });
  // Evaluations of large changes take longer than metadata calls.
  const evaluation = createClient(SERVICE_NAMES.evaluation, evaluationService, addr.evaluation, {
    timeoutMs: 60_000,
  });
  const compliance = createClient(SERVICE_NAMES.compliance, complianceV1.ComplianceServiceService, addr.compliance, {
    timeoutMs: 30_000,
  });
  const webhooks = createClient(SERVICE_NAMES.webhooks, webhooksV1.WebhookServiceService, addr.webhooks, {
    timeoutMs: 10_000,
  });
  // Connecting a repository waits for the provider's answer; a delivery is answered at once.
  const integrations = addr.integrations
    ? createClient(SERVICE_NAMES.integrations, integrationsV1.IntegrationsServiceService, addr.integrations, {
        timeoutMs: 20_000,
      })
    : undefined;
  const all = { identity, policy, evaluation, compliance, webhooks, ...(integrations ? { integrations } : {}) };
  return {
    ...all,
    integrations,
    async readiness(timeoutMs) {
      const names = Object.keys(all) as (keyof typeof all)[];
      const states = await Promise.all(names.map((n) => all[n]!.checkHealth(timeoutMs)));
      return Object.fromEntries(names.map((n, i) => [n, states[i]]));
    },
    close() {
      identity.close();
      policy.close();
      evaluation.close();
      compliance.close();
      webhooks.close();
      integrations?.close();
    },
  };
}
