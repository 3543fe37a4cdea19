import { applyPatch, patchOperations } from "../../domain/scimPatch.js";
import { USER_RESOURCE } from "../../domain/scimSchema.js";
import type { IdentityDeps } from "../../deps.js";
import type { ScimUserRecord } from "../../repos/scimRepo.js";
import type { ScimCaller } from "./access.js";
import { storeUser } from "./storeUser.js";
import type { Obj } from "./userResource.js";

export interface PatchScimUserCommand {
  caller: ScimCaller;
  user: ScimUserRecord;
  /** The request's body: a SCIM PatchOp. */
  body: unknown;
}

export async function patchUser(deps: IdentityDeps, cmd: PatchScimUserCommand): Promise<ScimUserRecord> {
  const current = JSON.parse(cmd.user.resource_json) as Obj;
  const next = applyPatch(USER_RESOURCE, current, patchOperations(cmd.body));
  return storeUser(deps, { caller: cmd.caller, user: cmd.user, resource: next });
}
