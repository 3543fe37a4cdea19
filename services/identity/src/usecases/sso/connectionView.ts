import type { SsoConnectionRecord, SsoDomainRecord } from "../../repos/ssoRepo.js";

/** The context OIDC client secrets are sealed under (deps.totpBox). */
export const SECRET_CONTEXT = "sso oidc client secret";

/** An organization's SSO connection, with the domains it claimed. */
export interface SsoConnectionView {
  connection: SsoConnectionRecord;
  domains: SsoDomainRecord[];
}
