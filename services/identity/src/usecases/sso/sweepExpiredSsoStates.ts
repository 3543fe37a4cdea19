// SSO sign-ins sent to an IdP that never came back (OIDC state, nonce and PKCE verifier; SAML
// AuthnRequest ids): deleted once expired, by the identity service's 10-minute sweep.
import type { IdentityDeps } from "../../deps.js";

export async function sweepExpiredSsoStates(deps: Pick<IdentityDeps, "sso" | "clock">): Promise<number> {
  return deps.sso.deleteExpiredStates(deps.clock.now());
}
