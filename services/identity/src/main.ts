// Wires the identity service: adapters in, gRPC out. Used by the all-in-one launcher and by the
// standalone entry point (bin.ts).
import { coreDeps, serveService, type RunningService, type ServiceBase } from "@verdict/runtime";
import { openIdentityRepos } from "./repos/index.js";
import { randomBytes } from "node:crypto";
import { createClient, Egress, masterSubkey, SecretBox, type Logger } from "@verdict/kit";
import { SERVICE_NAMES, identityV1, policyV1 } from "@verdict/proto";
import { subscribeIdentityConsumers } from "./consumers.js";
import { identityHandlers } from "./grpc.js";
import type { IdentityDeps } from "./deps.js";
import { sweepExpiredArtifacts } from "./usecases/oauth/sweepExpiredArtifacts.js";
import { OidcDiscoveryCache } from "./usecases/sso/oidcDiscovery.js";
import { sweepExpiredSsoStates } from "./usecases/sso/sweepExpiredSsoStates.js";
import { sweepAuditRetention } from "./usecases/audit/sweepAuditRetention.js";
import type { SessionPolicy } from "./domain/session.js";
import { argon2Passwords } from "./passwords.js";
import { ensureBootstrap } from "./usecases/bootstrap.js";

export interface IdentityServiceOptions extends ServiceBase {
  policyAddress: string;
  bootstrapKey?: string;
  /**
   * The instance's master key (see resolveMasterKey): TOTP secrets are sealed under a subkey.
   * Both entry points pass it; without one (tests of other services) a key lives as long as the
   * process, and TOTP enrolments with it.
   */
  masterKey?: Buffer;
  /** Default: 30 minutes idle, 12 hours absolute. */
  sessions?: SessionPolicy;
  /** How long an IdP's OIDC discovery document is reused (default 1 hour; 0: fetched each time). */
  oidcDiscoveryTtlMs?: number;
  /** Private addresses an IdP may be fetched at (VERDICT_SSO_ALLOW_PRIVATE); default none. */
  ssoAllowPrivate?: boolean | readonly string[];
}

export interface IdentityService extends RunningService {
  /** Set on the very first start when no bootstrap key was configured: print it once. */
  generatedBootstrapKey?: string;
}

export async function startIdentityService(opts: IdentityServiceOptions): Promise<IdentityService> {
  const core = coreDeps(opts);
  const { outbox } = core;
  const repos = await openIdentityRepos(opts.store, outbox);
  const policy = createClient(SERVICE_NAMES.policy, policyV1.PolicyServiceService, opts.policyAddress);
  const masterKey = opts.masterKey ?? ephemeralKey(opts.logger);
  const egress = new Egress({ allowPrivate: opts.ssoAllowPrivate ?? false });
  const deps: IdentityDeps = {
    ...repos,
    ...core,
    policy,
    passwords: argon2Passwords(),
    totpBox: new SecretBox(masterSubkey(masterKey, "identity totp")),
    oauthServerSecret: masterSubkey(masterKey, "oauth server"),
    oidcDiscovery: new OidcDiscoveryCache(opts.oidcDiscoveryTtlMs ?? 3_600_000, egress),
    egress,
    sessionPolicy: opts.sessions ?? { idleMs: 30 * 60_000, absoluteMs: 12 * 3_600_000 },
  };
  const { generatedKey } = await ensureBootstrap(deps, { configuredKey: opts.bootstrapKey });
  const subscriptions = await subscribeIdentityConsumers(deps, opts.bus);
  // Audit events past their organization's retention are deleted at start and every 10 minutes.
  const sweepAudit = () =>
    sweepAuditRetention(deps)
      .then((deleted) => {
        if (Object.keys(deleted).length) opts.logger.info({ deleted }, "audit events past retention deleted");
      })
      .catch((err: unknown) => opts.logger.warn({ err }, "could not delete audit events past retention"));
  void sweepAudit();
  // Expired OAuth codes, tokens and interactions, and SSO sign-ins that never came back from
  // the IdP, are deleted every 10 minutes (by any replica).
  const sweeper = setInterval(() => {
    void sweepAudit();
    sweepExpiredArtifacts(deps).catch((err: unknown) =>
      opts.logger.warn({ err }, "could not delete expired OAuth artifacts"),
    );
    sweepExpiredSsoStates(deps).catch((err: unknown) =>
      opts.logger.warn({ err }, "could not delete expired SSO sign-in states"),
    );
  }, 10 * 60_000);
  sweeper.unref();
  const service = await serveService(opts, "identity", identityV1.IdentityServiceService, identityHandlers(deps), {
    outbox,
    beforeStop: async () => {
      clearInterval(sweeper);
      await Promise.all(subscriptions.map((s) => s.unsubscribe()));
    },
    release: async () => policy.close(),
  });
  opts.logger.info({ port: service.grpc.port }, "identity service listening");
  return { ...service, ...(generatedKey ? { generatedBootstrapKey: generatedKey } : {}) };
}

function ephemeralKey(logger: Logger): Buffer {
  logger.warn("no master key given: TOTP enrolments last only as long as this process");
  return randomBytes(32);
}
