import { errors } from "@verdict/kit";
import type { IdentityDeps } from "../../deps.js";
import { recordAudit, type Actor } from "../audit/recordAudit.js";

export interface DeleteSsoConnectionCommand {
  organizationId: string;
  actor: Actor;
}

export async function deleteSsoConnection(deps: IdentityDeps, cmd: DeleteSsoConnectionCommand): Promise<void> {
  const { organizationId, actor } = cmd;
  const connection = await deps.sso.connectionOf(organizationId);
  if (!connection) throw errors.notFound("sso_connection", organizationId);
  await deps.sso.deleteConnection(organizationId);
  if (connection.oidc) deps.oidcDiscovery.invalidate(connection.oidc.issuer);
  await recordAudit(deps, {
    organizationId,
    type: "sso.connection_deleted",
    actor,
    targetType: "sso_connection",
    targetId: organizationId,
    data: { type: connection.type },
  });
}
