// The integrations service's configuration variables, shared by the all-in-one process and the
// service's own entry point (distributed mode).
import { z } from "zod";
import { allowPrivateVar, masterKeyVar, resolveMasterKey, type Logger } from "@verdict/kit";
import {
  addressVar,
  DEFAULT_ADDRESSES,
  DEFAULT_GRPC_PORTS,
  documentVariables,
  grpcServiceConfig,
  positiveInt,
  publicUrlVar,
} from "@verdict/runtime";
import { DEFAULT_CHANGE_LIMITS } from "./domain/change.js";
import type { IntegrationsServiceOptions } from "./main.js";

export const integrationsConfig = z.object({
  VERDICT_PUBLIC_URL: publicUrlVar(),
  /** Sealing key of tokens and webhook secrets: the webhooks service's master key (one key to keep). */
  VERDICT_WEBHOOK_MASTER_KEY: masterKeyVar(),
  VERDICT_INTEGRATIONS_MAX_FILES: positiveInt(DEFAULT_CHANGE_LIMITS.maxFiles),
  VERDICT_INTEGRATIONS_MAX_TOTAL_BYTES: positiveInt(DEFAULT_CHANGE_LIMITS.maxTotalBytes),
  VERDICT_INTEGRATIONS_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  /** Private addresses a provider's API may be called at: false (none), true (all), or addresses / CIDR ranges. */
  VERDICT_INTEGRATIONS_ALLOW_PRIVATE: allowPrivateVar(),
});

export type IntegrationsConfig = z.infer<typeof integrationsConfig>;

/** The integrations service as its own process (bin.ts). */
export const integrationsProcessConfig = grpcServiceConfig(DEFAULT_GRPC_PORTS.integrations).extend({
  ...integrationsConfig.shape,
  VERDICT_IDENTITY_ADDRESS: addressVar(DEFAULT_ADDRESSES.identity),
  VERDICT_POLICY_ADDRESS: addressVar(DEFAULT_ADDRESSES.policy),
  VERDICT_EVALUATION_ADDRESS: addressVar(DEFAULT_ADDRESSES.evaluation),
});

export function integrationsOptions(
  c: IntegrationsConfig,
  dataDir: string,
  logger: Logger,
): Pick<IntegrationsServiceOptions, "masterKey" | "limits" | "providerTimeoutMs" | "publicUrl" | "allowPrivate"> {
  return {
    masterKey: resolveMasterKey(c.VERDICT_WEBHOOK_MASTER_KEY, dataDir, logger),
    limits: {
      ...DEFAULT_CHANGE_LIMITS,
      maxFiles: c.VERDICT_INTEGRATIONS_MAX_FILES,
      maxTotalBytes: c.VERDICT_INTEGRATIONS_MAX_TOTAL_BYTES,
    },
    providerTimeoutMs: c.VERDICT_INTEGRATIONS_TIMEOUT_MS,
    publicUrl: c.VERDICT_PUBLIC_URL,
    allowPrivate: c.VERDICT_INTEGRATIONS_ALLOW_PRIVATE,
  };
}

documentVariables({
  VERDICT_INTEGRATIONS_MAX_FILES:
    "Files of one pull request evaluated at most; a larger change is evaluated in part and reported neutral (never a silent pass)",
  VERDICT_INTEGRATIONS_MAX_TOTAL_BYTES:
    "Bytes of one pull request's files evaluated at most (each file at most 1 MiB); the rest is reported as not evaluated",
  VERDICT_INTEGRATIONS_TIMEOUT_MS: "Deadline of one call to a hosting provider's API",
  VERDICT_INTEGRATIONS_ALLOW_PRIVATE:
    "Loopback, private, link-local and metadata addresses a provider connection's `base_url` may be at (a connection to any other such address is refused with 422 `PROVIDER_ADDRESS_NOT_ALLOWED`, and every call to the provider is checked): `false` (none), comma-separated addresses and CIDR ranges (`10.20.0.5,10.30.0.0/16`: a Gitea or GitHub Enterprise Server inside your network), or `true` (all: development and tests only). See [Gitea](integrations/gitea.md#what-you-need)",
});
