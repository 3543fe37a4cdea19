import type { IdentityDeps } from "../../deps.js";
import type { ScimGroupRecord } from "../../repos/scimRepo.js";
import type { ScimCaller } from "./access.js";
import { groupBody } from "./groupResource.js";
import { storeGroup } from "./storeGroup.js";

export interface ReplaceScimGroupCommand {
  caller: ScimCaller;
  group: ScimGroupRecord;
  /** The request's body: the whole new SCIM Group resource (PUT). */
  body: unknown;
}

export async function replaceGroup(deps: IdentityDeps, cmd: ReplaceScimGroupCommand): Promise<ScimGroupRecord> {
  return storeGroup(deps, { caller: cmd.caller, group: cmd.group, resource: groupBody(cmd.body) });
}
