import { hashKey } from "../domain/apiKey.js";
import type { IdentityDeps } from "../deps.js";
import { createApiKey } from "./apiKeys.js";
import { createOrganization } from "./organizations.js";

/**
 * On start-up: make sure a default organization and an operator key exist. With a configured
 * key (VERDICT_BOOTSTRAP_API_KEY) that key is ensured; without one, a key is generated on the
 * first start only and returned so the launcher can print it once.
 */
export async function ensureBootstrap(deps: IdentityDeps, configuredKey: string | undefined): Promise<{ generatedKey?: string }> {
  const defaultOrg = await deps.repo.orgs.findOne({ is_default: true });
  if (configuredKey) {
    const existing = await deps.repo.keys.findOne({ hash: hashKey(configuredKey) });
    if (existing) return {};
    if (!defaultOrg) {
      await createOrganization(deps, { name: "Default organization", plan: "enterprise", isDefault: true }, { presetKey: configuredKey, operator: true });
      return {};
    }
    await createApiKey(deps, {
      organizationId: defaultOrg.id,
      name: "Bootstrap (instance operator)",
      scopes: ["admin"],
      expiration: "never",
      environment: "prod",
      ipAllowlist: [],
      operator: true,
      presetKey: configuredKey,
    });
    return {};
  }
  if (defaultOrg) return {};
  const created = await createOrganization(deps, { name: "Default organization", plan: "enterprise", isDefault: true }, { operator: true });
  return { generatedKey: created.key };
}
