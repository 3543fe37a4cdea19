import type { IdentityDeps } from "../../deps.js";
import { scimErrors } from "../../domain/scimError.js";
import type { ScimUserRecord } from "../../repos/scimRepo.js";

export interface FindScimUserCommand {
  organizationId: string;
  /** The SCIM id. */
  id: string;
}

/** One of the organization's SCIM users, or SCIM's 404. */
export async function findUser(deps: IdentityDeps, cmd: FindScimUserCommand): Promise<ScimUserRecord> {
  const rec = await deps.scim.user(cmd.organizationId, cmd.id);
  if (!rec) throw scimErrors.notFound("User", cmd.id);
  return rec;
}
