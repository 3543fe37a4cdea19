import { scimErrors } from "../../domain/scimError.js";
import type { IdentityDeps } from "../../deps.js";
import type { ScimUserRecord } from "../../repos/scimRepo.js";
import { recordAudit } from "../audit/recordAudit.js";
import { assertMayEndAccess, endAccess, type ScimCaller } from "./access.js";

export interface DeleteScimUserCommand {
  caller: ScimCaller;
  user: ScimUserRecord;
}

export async function deleteUser(deps: IdentityDeps, cmd: DeleteScimUserCommand): Promise<void> {
  const { caller, user: rec } = cmd;
  if (rec.active) await assertMayEndAccess(deps, { caller, rec });
  const ended = rec.active ? await endAccess(deps, { caller, rec }) : undefined;
  if (!(await deps.scim.deleteUser(rec))) throw scimErrors.preconditionFailed();
  // Out of every group too: a user provisioned again later starts without old roles.
  await deps.scim.removeFromGroups(caller.organizationId, rec.scim_id);
  await recordAudit(deps, {
    organizationId: caller.organizationId,
    type: "scim.user_deleted",
    actor: caller.actor,
    targetType: "user",
    targetId: rec.scim_id,
    data: ended
      ? {
          sessions_ended: ended.sessions,
          oauth_artifacts_revoked: ended.oauthArtifacts,
          api_keys_revoked: ended.apiKeys,
        }
      : {},
  });
}
