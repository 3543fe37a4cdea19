import { AppError, errors } from "@verdict/kit";
import { planHasSso, SSO_PLANS } from "../../domain/sso.js";
import type { IdentityDeps } from "../../deps.js";

/** 404 without the organization, 403 PLAN_FEATURE_UNAVAILABLE when its plan has no SSO (set up, and each sign-in). */
export async function assertSsoPlan(deps: IdentityDeps, organizationId: string): Promise<void> {
  const org = await deps.orgs.find(organizationId);
  if (!org) throw errors.notFound("organization", organizationId);
  if (!planHasSso(org.plan))
    throw new AppError(
      "forbidden",
      "PLAN_FEATURE_UNAVAILABLE",
      `SSO is part of the Team, Business and Enterprise plans; this organization is on ${org.plan}`,
      { plan: org.plan, plans: [...SSO_PLANS] },
    );
}
