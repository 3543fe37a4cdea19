import type { IdentityDeps } from "../../deps.js";
import type { OAuthClientRecord } from "../../repo.js";

export interface ListOAuthClientsQuery {
  organizationId: string;
}

export function listOAuthClients(
  deps: IdentityDeps,
  { organizationId }: ListOAuthClientsQuery,
): Promise<OAuthClientRecord[]> {
  return deps.repo.oauthClientsOf(organizationId);
}
