import type { IdentityDeps } from "../../deps.js";
import type { ScimUserRecord } from "../../repos/scimRepo.js";
import type { ScimCaller } from "./access.js";
import { storeUser } from "./storeUser.js";
import { userBody } from "./userResource.js";

export interface ReplaceScimUserCommand {
  caller: ScimCaller;
  user: ScimUserRecord;
  /** The request's body: the whole new SCIM User resource (PUT). */
  body: unknown;
}

export async function replaceUser(deps: IdentityDeps, cmd: ReplaceScimUserCommand): Promise<ScimUserRecord> {
  return storeUser(deps, { caller: cmd.caller, user: cmd.user, resource: userBody(cmd.body) });
}
