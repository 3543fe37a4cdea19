import type { IdentityDeps } from "../../deps.js";
import type { OAuthClientRecord } from "../../repo.js";

export function listOAuthClients(deps: IdentityDeps, organizationId: string): Promise<OAuthClientRecord[]> {
  return deps.repo.oauthClientsOf(organizationId);
}
