// The identity service's repositories, one per aggregate, opened together (their indexes made,
// records of earlier versions brought up to date) by the service and by tests alike.
import type { Outbox } from "@verdict/outbox";
import type { Store } from "@verdict/store";
import { AccountRepo } from "./accountRepo.js";
import { ApiKeyRepo } from "./apiKeyRepo.js";
import { AuditRepo } from "./auditRepo.js";
import { MemberRepo } from "./memberRepo.js";
import { OAuthRepo } from "./oauthRepo.js";
import { OrganizationRepo } from "./organizationRepo.js";
import { ScimRepo } from "./scimRepo.js";
import { SessionRepo } from "./sessionRepo.js";
import { SsoRepo } from "./ssoRepo.js";
import { ThrottleRepo } from "./throttleRepo.js";

export interface IdentityRepos {
  /** Organizations: name, plan, settings, rate limits. */
  orgs: OrganizationRepo;
  /** API keys (hashes only), with the events that announce revocations. */
  keys: ApiKeyRepo;
  /** Memberships and open invitations. */
  members: MemberRepo;
  /** Accounts: profile and credentials (password, reset links, TOTP, recovery codes, passkeys). */
  accounts: AccountRepo;
  /** Signed-in sessions (and sign-ins waiting for a second factor). */
  sessions: SessionRepo;
  /** Failed sign-in attempts per account and per address. */
  throttles: ThrottleRepo;
  /** The audit log. */
  audit: AuditRepo;
  /** OAuth clients, and the authorization server's artifacts. */
  oauth: OAuthRepo;
  /** SSO connections, claimed domains and sign-ins under way at an IdP. */
  sso: SsoRepo;
  /** SCIM tokens, and the users and groups an identity provider keeps in step. */
  scim: ScimRepo;
}

export async function openIdentityRepos(store: Store, outbox: Outbox): Promise<IdentityRepos> {
  const repos: IdentityRepos = {
    orgs: new OrganizationRepo(store, outbox),
    keys: new ApiKeyRepo(store, outbox),
    members: new MemberRepo(store),
    accounts: new AccountRepo(store),
    sessions: new SessionRepo(store),
    throttles: new ThrottleRepo(store),
    audit: new AuditRepo(store, outbox),
    oauth: new OAuthRepo(store),
    sso: new SsoRepo(store),
    scim: new ScimRepo(store),
  };
  for (const repo of Object.values(repos) as { init?: () => Promise<void> }[]) await repo.init?.();
  return repos;
}
