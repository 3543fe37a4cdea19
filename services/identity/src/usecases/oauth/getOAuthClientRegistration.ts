import { errors } from "@verdict/kit";
import type { IdentityDeps } from "../../deps.js";
import type { OAuthClientRecord } from "../../repos/oauthRepo.js";

export interface GetOAuthClientRegistrationQuery {
  clientId: string;
}

/** A registered client, whichever organization holds it (the authorization server's lookup). */
export async function getOAuthClientRegistration(
  deps: IdentityDeps,
  { clientId }: GetOAuthClientRegistrationQuery,
): Promise<OAuthClientRecord> {
  const client = await deps.oauth.liveClient(clientId);
  if (!client) throw errors.notFound("oauth_client", clientId);
  return client;
}
