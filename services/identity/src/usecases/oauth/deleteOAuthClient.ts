import { errors } from "@verdict/kit";
import type { IdentityDeps } from "../../deps.js";
import { recordAudit, type Actor } from "../audit/recordAudit.js";

export interface DeleteOAuthClientCommand {
  organizationId: string;
  clientId: string;
  actor: Actor;
}

/** Deletes a client: it can no longer sign anyone in. */
export async function deleteOAuthClient(deps: IdentityDeps, cmd: DeleteOAuthClientCommand): Promise<void> {
  const client = await deps.oauth.client(cmd.organizationId, cmd.clientId);
  if (!client) throw errors.notFound("oauth_client", cmd.clientId);
  if (client.deleted_at) throw errors.deleted("oauth_client", cmd.clientId);
  const deletedAt = deps.clock.now().toISOString();
  const updated = await deps.oauth.markClientDeleted(cmd.organizationId, client.id, deletedAt);
  if (!updated) throw errors.deleted("oauth_client", cmd.clientId);
  await recordAudit(deps, {
    organizationId: cmd.organizationId,
    type: "oauth_client.deleted",
    actor: cmd.actor,
    targetType: "oauth_client",
    targetId: client.id,
    data: { name: client.name },
  });
}
