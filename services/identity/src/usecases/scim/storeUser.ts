// What replacing and patching a SCIM user share: the new attributes stored, and what `active`
// means for the person's access to the organization.
import { DuplicateKeyError } from "@verdict/store";
import { externalIdKey } from "../../domain/scimQuery.js";
import { scimErrors } from "../../domain/scimError.js";
import type { IdentityDeps } from "../../deps.js";
import type { ScimUserRecord } from "../../repos/scimRepo.js";
import { recordAudit } from "../audit/recordAudit.js";
import { assertMayEndAccess, endAccess, grantAccess, type ScimCaller } from "./access.js";
import { assertUserNameFree, linkAccount, type Obj } from "./userResource.js";

export interface StoreScimUserCommand {
  caller: ScimCaller;
  /** The user as read; the write holds only while it is still at this version (If-Match). */
  user: ScimUserRecord;
  /** The user's new attributes. */
  resource: Obj;
}

/** Stores the new attributes (If-Match checked by the version) and applies what `active` means. */
export async function storeUser(deps: IdentityDeps, cmd: StoreScimUserCommand): Promise<ScimUserRecord> {
  const { caller, user: rec, resource } = cmd;
  const ifMatchVersion = rec.version;
  // An unassigned `active` (PATCH remove) means the default: active.
  const active = resource.active !== false;
  const userNameKey = String(resource.userName).toLowerCase();
  if (userNameKey !== rec.user_name_key)
    await assertUserNameFree(deps, { organizationId: caller.organizationId, key: userNameKey, except: rec.id });
  if (rec.active && !active) await assertMayEndAccess(deps, { caller, rec });
  const userId = rec.user_id ?? (await linkAccount(deps, { caller, resource, scimId: rec.scim_id }));
  let updated: ScimUserRecord | null;
  try {
    updated = await deps.scim.updateUser(rec.id, ifMatchVersion, {
      user_name_key: userNameKey,
      external_id: externalIdKey(resource),
      user_id: userId,
      active,
      resource_json: JSON.stringify(resource),
      updated_at: deps.clock.now().toISOString(),
      version: ifMatchVersion + 1,
    });
  } catch (err) {
    if (err instanceof DuplicateKeyError) throw scimErrors.uniqueness("userName is already taken in this organization");
    throw err;
  }
  if (!updated) throw scimErrors.preconditionFailed();
  let ended: Obj = {};
  if (rec.active && !active) {
    const e = await endAccess(deps, { caller, rec: updated });
    ended = { sessions_ended: e.sessions, oauth_artifacts_revoked: e.oauthArtifacts, api_keys_revoked: e.apiKeys };
  } else if (active && (!rec.active || !rec.user_id)) await grantAccess(deps, { caller, rec: updated });
  await recordAudit(deps, {
    organizationId: caller.organizationId,
    type:
      rec.active && !active
        ? "scim.user_deactivated"
        : !rec.active && active
          ? "scim.user_reactivated"
          : "scim.user_updated",
    actor: caller.actor,
    targetType: "user",
    targetId: rec.scim_id,
    data: { user_name: resource.userName, active, ...ended },
  });
  return updated;
}
