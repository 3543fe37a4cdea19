import { errors, newId } from "@verdict/kit";
import {
  cleanLimits,
  DEFAULT_SETTINGS,
  withDefaults,
  type OrgSettings,
  type Plan,
  type RateLimitOverrides,
} from "../domain/organization.js";
import type { IdentityDeps } from "../deps.js";
import type { KeyRecord, OrgRecord } from "../repo.js";
import { createApiKey } from "./apiKeys.js";

export interface OrganizationView extends OrgRecord {
  members_count: number;
  repositories_count: number;
}

export async function getOrganization(deps: IdentityDeps, organizationId: string): Promise<OrganizationView> {
  const org = await deps.repo.orgs.findOne({ id: organizationId });
  if (!org) throw errors.notFound("organization", organizationId);
  const [members, repos] = await Promise.all([
    deps.repo.activeMembersCount(organizationId),
    deps.policy.countRepositories({ organization_id: organizationId }),
  ]);
  return { ...org, settings: withDefaults(org.settings), members_count: members, repositories_count: repos.count };
}

export async function getOrganizationSettings(deps: IdentityDeps, organizationId: string): Promise<OrgSettings> {
  const org = await deps.repo.orgs.findOne({ id: organizationId });
  if (!org) throw errors.notFound("organization", organizationId);
  return withDefaults(org.settings);
}

export interface UpdateOrganizationCommand {
  organizationId: string;
  name?: string;
  defaultSeverity?: "error" | "warning";
  requireEvaluationPass?: boolean;
  allowInlineSuppression?: boolean;
  requireMfa?: boolean;
}

export async function updateOrganization(
  deps: IdentityDeps,
  cmd: UpdateOrganizationCommand,
): Promise<OrganizationView> {
  const set: Record<string, unknown> = {};
  if (cmd.name !== undefined) set.name = cmd.name;
  if (cmd.defaultSeverity !== undefined) set["settings.default_severity"] = cmd.defaultSeverity;
  if (cmd.requireEvaluationPass !== undefined) set["settings.require_evaluation_pass"] = cmd.requireEvaluationPass;
  if (cmd.allowInlineSuppression !== undefined) set["settings.allow_inline_suppression"] = cmd.allowInlineSuppression;
  if (cmd.requireMfa !== undefined) set["settings.require_mfa"] = cmd.requireMfa;
  const updated = await deps.repo.orgs.updateOne({ id: cmd.organizationId }, set as Partial<OrgRecord>);
  if (!updated) throw errors.notFound("organization", cmd.organizationId);
  return getOrganization(deps, cmd.organizationId);
}

export async function updateOrganizationLimits(
  deps: IdentityDeps,
  organizationId: string,
  limits: RateLimitOverrides,
): Promise<OrganizationView> {
  const updated = await deps.repo.orgs.updateOne({ id: organizationId }, { rate_limits: cleanLimits(limits) });
  if (!updated) throw errors.notFound("organization", organizationId);
  return getOrganization(deps, organizationId);
}

export interface CreateOrganizationCommand {
  name: string;
  plan: Plan;
  rateLimits?: RateLimitOverrides;
  isDefault?: boolean;
}

/** Creates an organization with its first admin key (shown once). */
export async function createOrganization(
  deps: IdentityDeps,
  cmd: CreateOrganizationCommand,
  firstKey: { presetKey?: string; operator?: boolean } = {},
): Promise<{ org: OrganizationView; keyRecord: KeyRecord; key: string }> {
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
  await deps.repo.orgs.insertOne(org);
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
