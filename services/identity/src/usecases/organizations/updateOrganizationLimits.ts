import { errors } from "@verdict/kit";
import { cleanLimits, type RateLimitOverrides } from "../../domain/organization.js";
import type { IdentityDeps } from "../../deps.js";
import { getOrganization, type OrganizationView } from "./getOrganization.js";

export interface UpdateOrganizationLimitsCommand {
  organizationId: string;
  limits: RateLimitOverrides;
}

export async function updateOrganizationLimits(
  deps: IdentityDeps,
  cmd: UpdateOrganizationLimitsCommand,
): Promise<OrganizationView> {
  const updated = await deps.orgs.update(cmd.organizationId, { rate_limits: cleanLimits(cmd.limits) });
  if (!updated) throw errors.notFound("organization", cmd.organizationId);
  return getOrganization(deps, { organizationId: cmd.organizationId });
}
