import { hashKey } from "../../domain/apiKey.js";
import { scimAllowed, scimTokenWellFormed, SCIM_PLANS } from "../../domain/scim.js";
import { scimErrors } from "../../domain/scimError.js";
import type { IdentityDeps } from "../../deps.js";
import type { OrgRecord } from "../../repos/organizationRepo.js";
import type { ScimTokenRecord } from "../../repos/scimRepo.js";

export interface AuthenticateScimCommand {
  /** The bearer token the request presented ("" when none). */
  token: string;
}

const LAST_USED_GRANULARITY_MS = 60_000;

/** The token's organization, or a SCIM 401 (403 when the plan no longer includes SCIM). */
export async function authenticateScim(
  deps: IdentityDeps,
  cmd: AuthenticateScimCommand,
): Promise<{ record: ScimTokenRecord; org: OrgRecord }> {
  const { token } = cmd;
  if (!token) throw scimErrors.unauthorized("Send a SCIM token as 'Authorization: Bearer vdt_scim_…'");
  if (!scimTokenWellFormed(token)) throw scimErrors.unauthorized("The SCIM token is malformed");
  const record = await deps.scim.tokenByHash(hashKey(token));
  if (!record) throw scimErrors.unauthorized("The SCIM token is unknown or was deleted");
  const now = deps.clock.now();
  if (record.expires_at && Date.parse(record.expires_at) <= now.getTime())
    throw scimErrors.unauthorized(`The SCIM token expired at ${record.expires_at}`);
  const org = await deps.orgs.find(record.organization_id);
  if (!org) throw scimErrors.unauthorized("The SCIM token's organization no longer exists");
  if (!scimAllowed(org.plan))
    throw scimErrors.forbidden(`SCIM provisioning is on the ${SCIM_PLANS.join(" and ")} plans`);
  if (!record.last_used_at || now.getTime() - Date.parse(record.last_used_at) > LAST_USED_GRANULARITY_MS)
    await deps.scim.touchToken(record.id, now.toISOString());
  return { record, org };
}
