import { TOPICS } from "@verdict/bus";
import { errors } from "@verdict/kit";
import type { IdentityDeps } from "../../deps.js";
import { recordAudit, SYSTEM_ACTOR, type Actor } from "../audit/recordAudit.js";

export interface RevokeApiKeyCommand {
  organizationId: string;
  keyId: string;
  /** Who revokes it, for the audit log; unset: the instance itself. */
  actor?: Actor;
}

/** Revokes a key at once: gateways drop their cached verification on the event written with it. */
export async function revokeApiKey(deps: IdentityDeps, cmd: RevokeApiKeyCommand): Promise<void> {
  const { organizationId, keyId, actor = SYSTEM_ACTOR } = cmd;
  const key = await deps.keys.find(organizationId, keyId);
  if (!key) throw errors.notFound("api_key", keyId);
  if (key.revoked_at) throw errors.deleted("api_key", keyId);
  if (key.operator) {
    throw errors.unprocessable(
      [
        {
          field: "key_id",
          code: "INVALID_FORMAT",
          message: "The instance operator's bootstrap key is managed by VERDICT_BOOTSTRAP_API_KEY",
        },
      ],
      "The bootstrap key cannot be revoked through the API",
    );
  }
  const revokedAt = deps.clock.now().toISOString();
  // Gateways drop their cached verification of this key once the event reaches them; it is
  // written with the revocation (outbox), so no crash can keep one without the other.
  const event = deps.outbox.event(TOPICS.keyRevoked, {
    source: "/identity",
    subject: keyId,
    data: { key_id: keyId, organization_id: organizationId, revoked_at: revokedAt },
  });
  const updated = await deps.keys.revoke(organizationId, keyId, revokedAt, event);
  if (!updated) throw errors.deleted("api_key", keyId);
  await recordAudit(deps, {
    organizationId,
    type: "api_key.revoked",
    actor,
    targetType: "api_key",
    targetId: keyId,
    data: { name: key.name },
  });
  deps.logger.info({ key_id: keyId, organization_id: organizationId }, "API key revoked");
}
