import type { IdentityDeps } from "../../deps.js";
import type { ScimTokenRecord } from "../../repos/scimRepo.js";
import { orgOnScimPlan } from "./scimPlan.js";

export interface ListScimTokensQuery {
  organizationId: string;
}

/** The organization's SCIM tokens (never their values), oldest first. */
export async function listScimTokens(deps: IdentityDeps, query: ListScimTokensQuery): Promise<ScimTokenRecord[]> {
  await orgOnScimPlan(deps, query.organizationId);
  return deps.scim.tokensOf(query.organizationId);
}
