// SCIM tokens: what an identity provider (Okta, Entra ID) presents on /scim/v2. Created by
// admins on the Business and Enterprise plans, shown once, kept as SHA-256 hashes only.
import { newId } from "@verdict/kit";
import { expiresAt, hashKey, type Expiration } from "../../domain/apiKey.js";
import { generateScimToken, scimTokenPrefix } from "../../domain/scim.js";
import type { IdentityDeps } from "../../deps.js";
import type { ScimTokenRecord } from "../../repos/scimRepo.js";
import { recordAudit, type Actor } from "../audit/recordAudit.js";
import { orgOnScimPlan } from "./scimPlan.js";

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
  await deps.scim.insertToken(record);
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
