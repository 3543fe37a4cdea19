import { newId } from "@verdict/kit";
import { cleanLimits, DEFAULT_SETTINGS, type Plan, type RateLimitOverrides } from "../../domain/organization.js";
import type { IdentityDeps } from "../../deps.js";
import type { KeyRecord } from "../../repos/apiKeyRepo.js";
import type { OrgRecord } from "../../repos/organizationRepo.js";
import { createApiKey } from "../apiKeys/createApiKey.js";
import type { OrganizationView } from "./getOrganization.js";

export interface CreateOrganizationCommand {
  name: string;
  plan: Plan;
  rateLimits?: RateLimitOverrides;
  isDefault?: boolean;
  /** The first key: the configured bootstrap key, and whether it is the instance operator's. */
  firstKey?: { presetKey?: string; operator?: boolean };
}

/** Creates an organization with its first admin key (shown once). */
export async function createOrganization(
  deps: IdentityDeps,
  cmd: CreateOrganizationCommand,
): Promise<{ org: OrganizationView; keyRecord: KeyRecord; key: string }> {
  const firstKey = cmd.firstKey ?? {};
  const org: OrgRecord = {
    id: newId("org"),
    name: cmd.name,
    plan: cmd.plan,
    created_at: deps.clock.now().toISOString(),
    settings: { ...DEFAULT_SETTINGS },
    rate_limits: cleanLimits(cmd.rateLimits),
    is_default: cmd.isDefault ?? false,
    version: 1,
  };
  await deps.orgs.insert(org);
  const { record, key } = await createApiKey(deps, {
    organizationId: org.id,
    name: firstKey.operator ? "Bootstrap (instance operator)" : "Initial admin key",
    scopes: ["admin"],
    expiration: "never",
    environment: "prod",
    ipAllowlist: [],
    ...firstKey,
  });
  deps.logger.info({ organization_id: org.id }, "organization created");
  return { org: { ...org, members_count: 0, repositories_count: 0 }, keyRecord: record, key };
}
