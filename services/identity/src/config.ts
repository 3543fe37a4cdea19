// The identity service's configuration variables, declared once: its own process (bin.ts) and
// the all-in-one process read the same ones (docs/configuration.md).
import { z } from "zod";
import { allowPrivateVar, masterKeyVar, resolveMasterKey, type Logger } from "@verdict/kit";
import {
  addressVar,
  DEFAULT_ADDRESSES,
  DEFAULT_GRPC_PORTS,
  grpcServiceConfig,
  documentVariables,
} from "@verdict/runtime";
import { parseKey } from "./domain/apiKey.js";
import type { IdentityServiceOptions } from "./main.js";

const minutes = (fallback: number) => z.coerce.number().int().min(1).max(525_600).default(fallback);

export const identityConfig = z.object({
  /** The instance operator's key; unset (or empty): generated and printed once on the first start. */
  VERDICT_BOOTSTRAP_API_KEY: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === "" || parseKey(v).ok, {
      message: "must be a Verdict key (vdt_key_<prod|test>_ + 32 base62 characters + 6-character checksum)",
    })
    .transform((v) => v || undefined),
  /** A session unused this long ends (sign in again). */
  VERDICT_SESSION_IDLE_TIMEOUT_MINUTES: minutes(30),
  /** A session ends this long after sign-in, however busy. */
  VERDICT_SESSION_ABSOLUTE_TIMEOUT_MINUTES: minutes(12 * 60),
  /** How long an IdP's OIDC discovery document is reused; 0: fetched at each sign-in step. */
  VERDICT_OIDC_DISCOVERY_TTL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(3_600),
  /** Private addresses an IdP may be fetched at: false (none), true (all), or addresses / CIDR ranges. */
  VERDICT_SSO_ALLOW_PRIVATE: allowPrivateVar(),
});

export type IdentityConfig = z.infer<typeof identityConfig>;

export function sessionPolicy(
  config: Pick<IdentityConfig, "VERDICT_SESSION_IDLE_TIMEOUT_MINUTES" | "VERDICT_SESSION_ABSOLUTE_TIMEOUT_MINUTES">,
): {
  idleMs: number;
  absoluteMs: number;
} {
  return {
    idleMs: config.VERDICT_SESSION_IDLE_TIMEOUT_MINUTES * 60_000,
    absoluteMs: config.VERDICT_SESSION_ABSOLUTE_TIMEOUT_MINUTES * 60_000,
  };
}

/** The identity service's options from its variables, the same in its own process and the all-in-one. */
export function identityOptions(
  config: IdentityConfig & { VERDICT_WEBHOOK_MASTER_KEY?: string | undefined },
  dataDir: string,
  logger: Logger,
): Pick<IdentityServiceOptions, "bootstrapKey" | "masterKey" | "sessions" | "oidcDiscoveryTtlMs" | "ssoAllowPrivate"> {
  return {
    ...(config.VERDICT_BOOTSTRAP_API_KEY ? { bootstrapKey: config.VERDICT_BOOTSTRAP_API_KEY } : {}),
    // Every replica needs the same key: set VERDICT_WEBHOOK_MASTER_KEY when they do not share a data directory.
    masterKey: resolveMasterKey(config.VERDICT_WEBHOOK_MASTER_KEY, dataDir, logger),
    sessions: sessionPolicy(config),
    oidcDiscoveryTtlMs: config.VERDICT_OIDC_DISCOVERY_TTL_SECONDS * 1000,
    ssoAllowPrivate: config.VERDICT_SSO_ALLOW_PRIVATE,
  };
}

/** The identity service as its own process (bin.ts). */
export const identityProcessConfig = grpcServiceConfig(DEFAULT_GRPC_PORTS.identity).extend({
  ...identityConfig.shape,
  /** The instance's master key (shared with the webhooks service); TOTP secrets use a subkey of it. */
  VERDICT_WEBHOOK_MASTER_KEY: masterKeyVar(),
  VERDICT_POLICY_ADDRESS: addressVar(DEFAULT_ADDRESSES.policy),
});

documentVariables({
  VERDICT_BOOTSTRAP_API_KEY:
    "The instance operator's key; unset: generated and printed once on the first start. Changing it retires the previous operator key (see [Using the API](api.md#using-the-api))",
  VERDICT_SESSION_IDLE_TIMEOUT_MINUTES: "A sign-in session unused this long ends",
  VERDICT_SESSION_ABSOLUTE_TIMEOUT_MINUTES: "A session ends this long after sign-in, however busy",
  VERDICT_OIDC_DISCOVERY_TTL_SECONDS:
    "How long an SSO identity provider's OIDC discovery document is reused, per issuer (saving the connection fetches it again); 0: fetched at each sign-in step",
  VERDICT_SSO_ALLOW_PRIVATE:
    "Loopback, private, link-local and metadata addresses an identity provider's SAML metadata, OIDC discovery document, token endpoint and keys may be fetched at: `false` (none), comma-separated addresses and CIDR ranges (`10.20.0.5,10.30.0.0/16`: an IdP inside your network), or `true` (all: development and tests only). See [SSO](sso.md#what-is-checked)",
});
