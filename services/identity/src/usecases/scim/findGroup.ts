import { scimErrors } from "../../domain/scimError.js";
import type { IdentityDeps } from "../../deps.js";
import type { ScimGroupRecord } from "../../repos/scimRepo.js";

export interface FindScimGroupCommand {
  organizationId: string;
  /** The SCIM id. */
  id: string;
}

/** One of the organization's SCIM groups, or SCIM's 404. */
export async function findGroup(deps: IdentityDeps, cmd: FindScimGroupCommand): Promise<ScimGroupRecord> {
  const rec = await deps.scim.group(cmd.organizationId, cmd.id);
  if (!rec) throw scimErrors.notFound("Group", cmd.id);
  return rec;
}
