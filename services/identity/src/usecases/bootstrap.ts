import { TOPICS } from "@verdict/bus";
import { ConfigError } from "@verdict/kit";
import { hashKey } from "../domain/apiKey.js";
import type { IdentityDeps } from "../deps.js";
import { createApiKey } from "./apiKeys/createApiKey.js";
import { createOrganization } from "./organizations/createOrganization.js";

export interface EnsureBootstrapCommand {
  configuredKey: string | undefined;
}

/**
 * On start-up: make sure a default organization and an operator key exist. With a configured
 * key (VERDICT_BOOTSTRAP_API_KEY) that key is ensured and every other operator key is retired
 * (a leaked operator key is replaced by configuring a new one and restarting); without one, a
 * key is generated on the first start only and returned so the launcher can print it once.
 */
export async function ensureBootstrap(
  deps: IdentityDeps,
  { configuredKey }: EnsureBootstrapCommand,
): Promise<{ generatedKey?: string }> {
  const defaultOrg = await deps.orgs.defaultOrganization();
  if (configuredKey) {
    const hash = hashKey(configuredKey);
    const existing = await deps.keys.byHash(hash);
    if (existing && (existing.revoked_at || existing.retired_at)) {
      // Going back to a key that was taken out of service would bring a leaked key back.
      throw new ConfigError(
        `VERDICT_BOOTSTRAP_API_KEY names a key that was ${existing.revoked_at ? "revoked" : "retired"} (${existing.id}); configure a new key (see docs/configuration.md)`,
      );
    }
    if (!existing && !defaultOrg) {
      await createOrganization(deps, {
        name: "Default organization",
        plan: "enterprise",
        isDefault: true,
        firstKey: { presetKey: configuredKey, operator: true },
      });
    } else if (!existing) {
      await createApiKey(deps, {
        organizationId: defaultOrg!.id,
        name: "Bootstrap (instance operator)",
        scopes: ["admin"],
        expiration: "never",
        environment: "prod",
        ipAllowlist: [],
        operator: true,
        presetKey: configuredKey,
      });
    }
    await retireOtherOperatorKeys(deps, hash);
    return {};
  }
  if (defaultOrg) return {};
  const created = await createOrganization(deps, {
    name: "Default organization",
    plan: "enterprise",
    isDefault: true,
    firstKey: { operator: true },
  });
  return { generatedKey: created.key };
}

/**
 * Retires every operator key but the configured one: it stops working at once (gateways drop
 * their cached verification on the revocation event written with it) and is no longer the
 * operator's, so it can be revoked like any other key. Logged by id, never by value.
 */
async function retireOtherOperatorKeys(deps: IdentityDeps, currentHash: string): Promise<void> {
  const operatorKeys = await deps.keys.liveOperatorKeys();
  for (const key of operatorKeys) {
    if (key.hash === currentHash || key.retired_at) continue;
    const retiredAt = deps.clock.now().toISOString();
    const event = deps.outbox.event(TOPICS.keyRevoked, {
      source: "/identity",
      subject: key.id,
      data: { key_id: key.id, organization_id: key.organization_id, revoked_at: retiredAt },
    });
    const updated = await deps.keys.retireOperatorKey(key.id, retiredAt, event);
    if (updated) {
      deps.logger.warn(
        { key_id: key.id, organization_id: key.organization_id, retired_at: retiredAt },
        "instance operator key retired: VERDICT_BOOTSTRAP_API_KEY now names another key",
      );
    }
  }
}
