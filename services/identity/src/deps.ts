import type { Bus } from "@verdict/bus";
import type { AsyncClient, Clock, Egress, Logger, SecretBox } from "@verdict/kit";
import type { Outbox } from "@verdict/outbox";
import type { policyV1 } from "@verdict/proto";
import type { SessionPolicy } from "./domain/session.js";
import type { Passwords } from "./passwords.js";
import type { IdentityRepos } from "./repos/index.js";
import type { OidcDiscoveryCache } from "./usecases/sso/oidcDiscovery.js";

/** The repositories (repos/index.ts: one per aggregate), and the adapters. */
export interface IdentityDeps extends IdentityRepos {
  bus: Bus;
  /** Every event that announces a state change is written with it (see @verdict/outbox). */
  outbox: Outbox;
  clock: Clock;
  logger: Logger;
  /** Asked for repository counts: repositories belong to the policy service (its gRPC client, or a fake in tests). */
  policy: Pick<AsyncClient<typeof policyV1.PolicyServiceService>, "countRepositories">;
  passwords: Passwords;
  /** Seals TOTP secrets at rest (a subkey of the instance's master key). */
  totpBox: SecretBox;
  sessionPolicy: SessionPolicy;
  /** Signs the OAuth authorization server's cookies (a subkey of the master key), shared by every gateway. */
  oauthServerSecret: Buffer;
  /** IdPs' OIDC discovery documents, cached per issuer (VERDICT_OIDC_DISCOVERY_TTL_SECONDS). */
  oidcDiscovery: OidcDiscoveryCache;
  /** Every request to an IdP (metadata, discovery, token, keys) goes through this guard. */
  egress: Egress;
}
