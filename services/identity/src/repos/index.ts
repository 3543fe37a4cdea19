// The identity service's repositories, one per aggregate, opened together (their indexes made,
// records of earlier versions brought up to date) by the service and by tests alike.
import type { Outbox } from "@verdict/outbox";
import type { Store } from "@verdict/store";
import { IdentityRepo } from "../repo.js";
import { AuditRepo } from "./auditRepo.js";
import { OAuthRepo } from "./oauthRepo.js";
import { ScimRepo } from "./scimRepo.js";
import { SsoRepo } from "./ssoRepo.js";

export interface IdentityRepos {
  /** Organizations, API keys, accounts and members, sessions and MFA. */
  repo: IdentityRepo;
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
  const repos = {
    repo: new IdentityRepo(store, outbox),
    audit: new AuditRepo(store, outbox),
    oauth: new OAuthRepo(store),
    sso: new SsoRepo(store),
    scim: new ScimRepo(store),
  };
  await repos.repo.init();
  await repos.audit.init();
  await repos.oauth.init();
  await repos.sso.init();
  await repos.scim.init();
  return repos;
}
