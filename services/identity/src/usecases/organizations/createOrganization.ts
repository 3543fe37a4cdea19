import { fieldChanges, newId } from "@verdict/kit";
import { auditChangeEvent, type AuditContextInput } from "@verdict/outbox";
import { cleanLimits, DEFAULT_SETTINGS, type Plan, type RateLimitOverrides } from "../../domain/organization.js";
import type { IdentityDeps } from "../../deps.js";
import type { KeyRecord } from "../../repos/apiKeyRepo.js";
import type { OrgRecord } from "../../repos/organizationRepo.js";
import { createApiKey } from "../apiKeys/createApiKey.js";
import type { OrganizationView } from "./getOrganization.js";
import { limitFields } from "./updateOrganizationLimits.js";

export interface CreateOrganizationCommand {
  name: string;
  plan: Plan;
  rateLimits?: RateLimitOverrides;
  isDefault?: boolean;
  /** The first key: the configured bootstrap key, and whether it is the instance operator's. */
  firstKey?: { presetKey?: string; operator?: boolean };
  /** Who asks (the instance operator), for the organization's first audit event. */
  audit?: AuditContextInput | undefined;
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
  // The organization's log starts with its creation: who made it, its name, plan and limits.
  const after = { name: org.name, plan: org.plan, ...limitFields(org.rate_limits) };
  const audit = auditChangeEvent(deps.outbox, deps.clock, "/identity", {
    organizationId: org.id,
    type: "organization.created",
    context: cmd.audit,
    targetType: "organization",
    targetId: org.id,
    changes: fieldChanges(null, after, Object.keys(after)),
  });
  await deps.orgs.insert(org, [audit]);
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
