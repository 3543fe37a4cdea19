import { scimErrors } from "../../domain/scimError.js";
import type { IdentityDeps } from "../../deps.js";
import type { ScimGroupRecord } from "../../repos/scimRepo.js";
import { recordAudit } from "../audit/recordAudit.js";
import { syncRoles, type ScimCaller } from "./access.js";

export interface DeleteScimGroupCommand {
  caller: ScimCaller;
  group: ScimGroupRecord;
}

export async function deleteGroup(deps: IdentityDeps, cmd: DeleteScimGroupCommand): Promise<void> {
  const { caller, group: rec } = cmd;
  if (!(await deps.scim.deleteGroup(rec))) throw scimErrors.preconditionFailed();
  await syncRoles(deps, { caller, scimIds: rec.member_ids });
  await recordAudit(deps, {
    organizationId: caller.organizationId,
    type: "scim.group_deleted",
    actor: caller.actor,
    targetType: "scim_group",
    targetId: rec.group_id,
    data: { display_name: rec.display_name },
  });
}
