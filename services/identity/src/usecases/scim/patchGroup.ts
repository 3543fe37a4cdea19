import { applyPatch, patchOperations } from "../../domain/scimPatch.js";
import { GROUP_RESOURCE } from "../../domain/scimSchema.js";
import type { IdentityDeps } from "../../deps.js";
import type { ScimGroupRecord } from "../../repos/scimRepo.js";
import type { ScimCaller } from "./access.js";
import { currentAttributes } from "./groupResource.js";
import { storeGroup } from "./storeGroup.js";

export interface PatchScimGroupCommand {
  caller: ScimCaller;
  group: ScimGroupRecord;
  /** The request's body: a SCIM PatchOp. */
  body: unknown;
}

export async function patchGroup(deps: IdentityDeps, cmd: PatchScimGroupCommand): Promise<ScimGroupRecord> {
  const next = applyPatch(GROUP_RESOURCE, currentAttributes(cmd.group), patchOperations(cmd.body));
  return storeGroup(deps, { caller: cmd.caller, group: cmd.group, resource: next });
}
