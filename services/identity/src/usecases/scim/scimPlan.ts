import { errors } from "@verdict/kit";
import { scimAllowed, SCIM_PLANS } from "../../domain/scim.js";
import type { IdentityDeps } from "../../deps.js";
import type { OrgRecord } from "../../repos/organizationRepo.js";

/** The organization, when its plan includes SCIM provisioning (else 403, or 404 when there is none). */
export async function orgOnScimPlan(deps: IdentityDeps, organizationId: string): Promise<OrgRecord> {
  const org = await deps.orgs.find(organizationId);
  if (!org) throw errors.notFound("organization", organizationId);
  if (!scimAllowed(org.plan))
    throw errors.forbidden(
      "AUTH_ORG_ACCESS_DENIED",
      `SCIM provisioning is on the ${SCIM_PLANS.join(" and ")} plans; this organization is on ${org.plan}`,
      { plan: org.plan, required_plans: [...SCIM_PLANS] },
    );
  return org;
}
