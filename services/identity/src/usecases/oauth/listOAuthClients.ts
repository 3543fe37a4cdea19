import type { IdentityDeps } from "../../deps.js";
import type { OAuthClientRecord } from "../../repos/oauthRepo.js";

export interface ListOAuthClientsQuery {
  organizationId: string;
}

export function listOAuthClients(
  deps: IdentityDeps,
  { organizationId }: ListOAuthClientsQuery,
): Promise<OAuthClientRecord[]> {
  return deps.oauth.clientsOf(organizationId);
}
