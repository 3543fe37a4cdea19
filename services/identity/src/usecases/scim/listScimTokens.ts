import type { IdentityDeps } from "../../deps.js";
import type { ScimTokenRecord } from "../../repo.js";
import { orgOnScimPlan } from "./scimPlan.js";

export interface ListScimTokensQuery {
  organizationId: string;
}

/** The organization's SCIM tokens (never their values), oldest first. */
export async function listScimTokens(deps: IdentityDeps, query: ListScimTokensQuery): Promise<ScimTokenRecord[]> {
  await orgOnScimPlan(deps, query.organizationId);
  return deps.repo.scimTokensOf(query.organizationId);
}
