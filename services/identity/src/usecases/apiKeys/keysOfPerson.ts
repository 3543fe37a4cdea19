// A person's keys follow the person: they go when the person leaves the organization and narrow
// when their role does (verifyKey reads the role at every verification; the event below makes
// gateways ask again instead of trusting a cached verification).
import { TOPICS } from "@verdict/bus";
import type { IdentityDeps } from "../../deps.js";
import type { Actor } from "../audit/recordAudit.js";
import { revokeApiKey } from "./revokeApiKey.js";

export interface KeysOfPersonCommand {
  organizationId: string;
  userId: string;
  actor: Actor;
}

/**
 * Revokes every live API key the person created here, directly or through their keys (revoked
 * through the same path as DELETE /v1/api-keys, so gateways drop cached verifications).
 * Answers how many.
 */
export async function revokeKeysCreatedBy(deps: IdentityDeps, cmd: KeysOfPersonCommand): Promise<number> {
  const keys = await deps.keys.liveKeysCreatedBy(cmd.organizationId, cmd.userId);
  for (const k of keys) await revokeApiKey(deps, { organizationId: cmd.organizationId, keyId: k.id, actor: cmd.actor });
  return keys.length;
}

/**
 * The person's role changed: their keys' scopes change with it at the next verification. Each
 * live key gets a key-revocation event (`reason: creator_role_changed`), written with the key
 * (outbox), on which gateways drop their cached verification of it at once.
 */
export async function announceCreatorRoleChanged(
  deps: IdentityDeps,
  cmd: Omit<KeysOfPersonCommand, "actor">,
): Promise<number> {
  const keys = await deps.keys.liveKeysCreatedBy(cmd.organizationId, cmd.userId);
  const at = deps.clock.now().toISOString();
  for (const k of keys) {
    const event = deps.outbox.event(TOPICS.keyRevoked, {
      source: "/identity",
      subject: k.id,
      data: { key_id: k.id, organization_id: cmd.organizationId, reason: "creator_role_changed", changed_at: at },
    });
    await deps.keys.announceChanged(cmd.organizationId, k.id, event);
  }
  return keys.length;
}
