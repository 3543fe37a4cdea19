import { newId } from "@verdict/kit";
import { externalIdKey } from "../../domain/scimQuery.js";
import type { IdentityDeps } from "../../deps.js";
import type { ScimGroupRecord } from "../../repos/scimRepo.js";
import { recordAudit } from "../audit/recordAudit.js";
import { syncRoles, type ScimCaller } from "./access.js";
import { groupBody, memberIds, storedPart } from "./groupResource.js";

export interface CreateScimGroupCommand {
  caller: ScimCaller;
  /** The request's body: a SCIM Group resource. */
  body: unknown;
}

export async function createGroup(deps: IdentityDeps, cmd: CreateScimGroupCommand): Promise<ScimGroupRecord> {
  const { caller } = cmd;
  const resource = groupBody(cmd.body);
  const members = await memberIds(deps, { organizationId: caller.organizationId, resource });
  const groupId = newId("grp");
  const now = deps.clock.now().toISOString();
  const rec: ScimGroupRecord = {
    id: `${caller.organizationId}.${groupId}`,
    organization_id: caller.organizationId,
    group_id: groupId,
    display_name: String(resource.displayName),
    display_name_key: String(resource.displayName).toLowerCase(),
    external_id: externalIdKey(resource),
    member_ids: members,
    resource_json: storedPart(resource),
    created_at: now,
    updated_at: now,
    version: 1,
  };
  await deps.scim.insertGroup(rec);
  await syncRoles(deps, { caller, scimIds: members });
  await recordAudit(deps, {
    organizationId: caller.organizationId,
    type: "scim.group_created",
    actor: caller.actor,
    targetType: "scim_group",
    targetId: groupId,
    data: { display_name: rec.display_name, members: members.length },
  });
  return rec;
}
