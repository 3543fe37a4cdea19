import { checksummedTokenValid, errors } from "@verdict/kit";
import type { IdentityDeps } from "../../deps.js";
import { ACCESS_TOKEN_PREFIX } from "../../domain/oauthToken.js";
import { personScopes } from "../members/authority.js";
import type { OrgRecord } from "../../repos/organizationRepo.js";

export interface VerifiedAccessToken {
  org: OrgRecord;
  userId: string;
  clientId: string;
  scopes: string[];
  expiresAt: string;
}

export interface VerifyAccessTokenCommand {
  token: string;
}

/**
 * A `vdt_oat_…` token presented on /v1: well-formed (checksum first, before any lookup), issued
 * and not expired or revoked, its client still registered and its member still in the
 * organization. It grants the scopes it was given, within what the member's role holds now.
 */
export async function verifyAccessToken(
  deps: IdentityDeps,
  { token }: VerifyAccessTokenCommand,
): Promise<VerifiedAccessToken> {
  if (!checksummedTokenValid(ACCESS_TOKEN_PREFIX, token))
    throw errors.unauthorized("AUTH_INVALID_KEY", "Access token format or checksum is invalid");
  const record = await deps.oauth.findArtifact("AccessToken", { id: token });
  if (!record) throw errors.unauthorized("AUTH_REVOKED_KEY", "Access token is not recognised or was revoked");
  const payload = JSON.parse(record.payload_json) as {
    accountId?: string;
    clientId?: string;
    scope?: string;
    exp?: number;
  };
  const now = deps.clock.now().getTime();
  if (!payload.exp || payload.exp * 1000 <= now)
    throw errors.unauthorized("AUTH_EXPIRED_KEY", "Access token expired: refresh it");
  const [organizationId, userId] = (payload.accountId ?? "").split(".");
  const granted = (payload.scope ?? "").split(" ").filter(Boolean);
  // The role ceiling keys and sessions have too: within what the member's role holds now.
  const scopes = organizationId && userId ? await personScopes(deps, organizationId, userId, granted) : null;
  if (!scopes) throw errors.unauthorized("AUTH_REVOKED_KEY", "The member this token acts for left the organization");
  const client = payload.clientId ? await deps.oauth.liveClient(payload.clientId) : null;
  if (!client || client.organization_id !== organizationId)
    throw errors.unauthorized("AUTH_REVOKED_KEY", "The application this token was issued to was deleted");
  const org = await deps.orgs.find(organizationId);
  if (!org) throw errors.forbidden("AUTH_ORG_ACCESS_DENIED", "The token's organization no longer exists");
  return {
    org,
    userId: userId!,
    clientId: client.id,
    scopes,
    expiresAt: new Date(payload.exp * 1000).toISOString(),
  };
}
