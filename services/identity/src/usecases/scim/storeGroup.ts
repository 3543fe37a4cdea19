// What replacing and patching a SCIM group share: the new attributes stored (If-Match checked
// by the version), and the roles of everyone it named before or names now re-derived.
import { externalIdKey } from "../../domain/scimQuery.js";
import { scimErrors } from "../../domain/scimError.js";
import type { IdentityDeps } from "../../deps.js";
import type { ScimGroupRecord } from "../../repos/scimRepo.js";
import { recordAudit } from "../audit/recordAudit.js";
import { syncRoles, type ScimCaller } from "./access.js";
import { memberIds, storedPart } from "./groupResource.js";

type Obj = Record<string, unknown>;

export interface StoreScimGroupCommand {
  caller: ScimCaller;
  /** The group as read; the write holds only while it is still at this version. */
  group: ScimGroupRecord;
  /** The group's new attributes. */
  resource: Obj;
}

export async function storeGroup(deps: IdentityDeps, cmd: StoreScimGroupCommand): Promise<ScimGroupRecord> {
  const { caller, group: rec, resource } = cmd;
  const members = await memberIds(deps, { organizationId: caller.organizationId, resource });
  const updated = await deps.scim.updateGroup(rec.id, rec.version, {
    display_name: String(resource.displayName),
    display_name_key: String(resource.displayName).toLowerCase(),
    external_id: externalIdKey(resource),
    member_ids: members,
    resource_json: storedPart(resource),
    updated_at: deps.clock.now().toISOString(),
    version: rec.version + 1,
  });
  if (!updated) throw scimErrors.preconditionFailed();
  await syncRoles(deps, { caller, scimIds: [...rec.member_ids, ...members] });
  await recordAudit(deps, {
    organizationId: caller.organizationId,
    type: "scim.group_updated",
    actor: caller.actor,
    targetType: "scim_group",
    targetId: rec.group_id,
    data: {
      display_name: updated.display_name,
      added: members.filter((m) => !rec.member_ids.includes(m)).length,
      removed: rec.member_ids.filter((m) => !members.includes(m)).length,
    },
  });
  return updated;
}
