import { DuplicateKeyError } from "@verdict/store";
import { newId } from "@verdict/kit";
import { externalIdKey } from "../../domain/scimQuery.js";
import { scimErrors } from "../../domain/scimError.js";
import type { IdentityDeps } from "../../deps.js";
import type { ScimUserRecord } from "../../repos/scimRepo.js";
import { recordAudit } from "../audit/recordAudit.js";
import { grantAccess, type ScimCaller } from "./access.js";
import { assertUserNameFree, linkAccount, userBody } from "./userResource.js";

export interface CreateScimUserCommand {
  caller: ScimCaller;
  /** The request's body: a SCIM User resource. */
  body: unknown;
}

export async function createUser(deps: IdentityDeps, cmd: CreateScimUserCommand): Promise<ScimUserRecord> {
  const { caller } = cmd;
  const resource = userBody(cmd.body);
  if (resource.active === undefined) resource.active = true;
  const active = resource.active !== false;
  const userNameKey = String(resource.userName).toLowerCase();
  await assertUserNameFree(deps, { organizationId: caller.organizationId, key: userNameKey });
  const scimId = newId("user");
  const userId = await linkAccount(deps, { caller, resource, scimId });
  const now = deps.clock.now().toISOString();
  const rec: ScimUserRecord = {
    id: `${caller.organizationId}.${scimId}`,
    organization_id: caller.organizationId,
    scim_id: scimId,
    user_id: userId,
    user_name_key: userNameKey,
    external_id: externalIdKey(resource),
    active,
    resource_json: JSON.stringify(resource),
    created_at: now,
    updated_at: now,
    version: 1,
  };
  try {
    await deps.scim.insertUser(rec);
  } catch (err) {
    if (err instanceof DuplicateKeyError) throw scimErrors.uniqueness("userName is already taken in this organization");
    throw err;
  }
  if (active) await grantAccess(deps, { caller, rec });
  await recordAudit(deps, {
    organizationId: caller.organizationId,
    type: "scim.user_created",
    actor: caller.actor,
    targetType: "user",
    targetId: scimId,
    data: { user_name: resource.userName, active, account_id: userId },
  });
  return rec;
}
