import { errors } from "@verdict/kit";
import type { IdentityDeps } from "../../deps.js";
import { recordAudit, type Actor } from "../audit/recordAudit.js";

const TYPES = ["oauth.granted", "oauth.token_revoked", "oauth.grant_revoked"] as const;

export interface RecordOAuthEventCommand {
  organizationId: string;
  type: string;
  actor: Actor;
  clientId: string;
  grantId: string;
  scopes: string[];
  reason: string;
}

/** Grants and revocations of the authorization server, in the audit log. */
export async function recordOAuthEvent(deps: IdentityDeps, cmd: RecordOAuthEventCommand): Promise<void> {
  const type = TYPES.find((t) => t === cmd.type);
  if (!type)
    throw errors.validation([
      { field: "type", code: "INVALID_ENUM", message: `type must be one of ${TYPES.join(", ")}` },
    ]);
  await recordAudit(deps, {
    organizationId: cmd.organizationId,
    type,
    actor: cmd.actor,
    targetType: "oauth_client",
    targetId: cmd.clientId,
    data: {
      grant_id: cmd.grantId,
      ...(cmd.scopes.length ? { scopes: cmd.scopes } : {}),
      ...(cmd.reason ? { reason: cmd.reason } : {}),
    },
  });
}
