import { errors } from "@verdict/kit";
import type { IdentityDeps } from "../../deps.js";
import { recordAudit, type Actor } from "../audit/recordAudit.js";

export interface DeleteScimTokenCommand {
  organizationId: string;
  tokenId: string;
  actor: Actor;
}

export async function deleteScimToken(deps: IdentityDeps, cmd: DeleteScimTokenCommand): Promise<void> {
  const { organizationId, tokenId } = cmd;
  const record = await deps.scim.deleteToken(organizationId, tokenId);
  if (!record) throw errors.notFound("scim_token", tokenId);
  await recordAudit(deps, {
    organizationId,
    type: "scim_token.deleted",
    actor: cmd.actor,
    targetType: "scim_token",
    targetId: tokenId,
    data: { name: record.name },
  });
}
