// SCIM tokens: what an identity provider (Okta, Entra ID) presents on /scim/v2. Created by
// admins on the Business and Enterprise plans, shown once, kept as SHA-256 hashes only.
import { errors, newId } from "@verdict/kit";
import { expiresAt, hashKey, type Expiration } from "../../domain/apiKey.js";
import { generateScimToken, scimAllowed, scimTokenPrefix, scimTokenWellFormed, SCIM_PLANS } from "../../domain/scim.js";
import { scimErrors } from "../../domain/scimError.js";
import type { IdentityDeps } from "../../deps.js";
import type { OrgRecord, ScimTokenRecord } from "../../repo.js";
import { recordAudit, type Actor } from "../audit/recordAudit.js";

async function orgOnScimPlan(deps: IdentityDeps, organizationId: string): Promise<OrgRecord> {
  const org = await deps.repo.orgs.findOne({ id: organizationId });
  if (!org) throw errors.notFound("organization", organizationId);
  if (!scimAllowed(org.plan))
    throw errors.forbidden(
      "AUTH_ORG_ACCESS_DENIED",
      `SCIM provisioning is on the ${SCIM_PLANS.join(" and ")} plans; this organization is on ${org.plan}`,
      { plan: org.plan, required_plans: [...SCIM_PLANS] },
    );
  return org;
}

export interface CreateScimTokenCommand {
  organizationId: string;
  name: string;
  expiration: Expiration;
  actor: Actor;
}

export async function createScimToken(
  deps: IdentityDeps,
  cmd: CreateScimTokenCommand,
): Promise<{ record: ScimTokenRecord; token: string }> {
  await orgOnScimPlan(deps, cmd.organizationId);
  const token = generateScimToken();
  const now = deps.clock.now();
  const record: ScimTokenRecord = {
    id: newId("sct"),
    organization_id: cmd.organizationId,
    name: cmd.name,
    prefix: scimTokenPrefix(token),
    hash: hashKey(token),
    created_at: now.toISOString(),
    expires_at: expiresAt(cmd.expiration, now),
    last_used_at: null,
  };
  await deps.repo.scimTokens.insertOne(record);
  await recordAudit(deps, {
    organizationId: cmd.organizationId,
    type: "scim_token.created",
    actor: cmd.actor,
    targetType: "scim_token",
    targetId: record.id,
    data: { name: record.name, expires_at: record.expires_at },
  });
  return { record, token };
}

export async function listScimTokens(deps: IdentityDeps, organizationId: string): Promise<ScimTokenRecord[]> {
  await orgOnScimPlan(deps, organizationId);
  return deps.repo.scimTokens.find({ organization_id: organizationId }, { sort: { id: 1 } });
}

export async function deleteScimToken(
  deps: IdentityDeps,
  organizationId: string,
  tokenId: string,
  actor: Actor,
): Promise<void> {
  const record = await deps.repo.scimTokens.findOne({ id: tokenId, organization_id: organizationId });
  if (!record || !(await deps.repo.scimTokens.deleteOne({ id: tokenId, organization_id: organizationId })))
    throw errors.notFound("scim_token", tokenId);
  await recordAudit(deps, {
    organizationId,
    type: "scim_token.deleted",
    actor,
    targetType: "scim_token",
    targetId: tokenId,
    data: { name: record.name },
  });
}

const LAST_USED_GRANULARITY_MS = 60_000;

/** The token's organization, or a SCIM 401 (403 when the plan no longer includes SCIM). */
export async function authenticateScim(
  deps: IdentityDeps,
  token: string,
): Promise<{ record: ScimTokenRecord; org: OrgRecord }> {
  if (!token) throw scimErrors.unauthorized("Send a SCIM token as 'Authorization: Bearer vdt_scim_…'");
  if (!scimTokenWellFormed(token)) throw scimErrors.unauthorized("The SCIM token is malformed");
  const record = await deps.repo.scimTokens.findOne({ hash: hashKey(token) });
  if (!record) throw scimErrors.unauthorized("The SCIM token is unknown or was deleted");
  const now = deps.clock.now();
  if (record.expires_at && Date.parse(record.expires_at) <= now.getTime())
    throw scimErrors.unauthorized(`The SCIM token expired at ${record.expires_at}`);
  const org = await deps.repo.orgs.findOne({ id: record.organization_id });
  if (!org) throw scimErrors.unauthorized("The SCIM token's organization no longer exists");
  if (!scimAllowed(org.plan))
    throw scimErrors.forbidden(`SCIM provisioning is on the ${SCIM_PLANS.join(" and ")} plans`);
  if (!record.last_used_at || now.getTime() - Date.parse(record.last_used_at) > LAST_USED_GRANULARITY_MS)
    await deps.repo.scimTokens.updateOne({ id: record.id }, { last_used_at: now.toISOString() });
  return { record, org };
}
