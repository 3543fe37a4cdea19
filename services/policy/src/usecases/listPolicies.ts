// An organization's policies, filtered on their effective values.
import { errors } from "@verdict/kit";
import { isSeverity, SEVERITIES, type EffectivePolicy } from "../domain/policy.js";
import type { PolicyDeps } from "../deps.js";
import { loadPolicies } from "./loadPolicies.js";

export interface ListPoliciesQuery {
  organizationId: string;
  enabled?: boolean | undefined;
  /** Empty or absent: not filtered, as in a query string. */
  category?: string;
  /** Empty or absent: not filtered. */
  severity?: string;
}

/** Filters apply to effective values (an override that disables a built-in hides it from enabled=true). */
export async function listPolicies(deps: PolicyDeps, query: ListPoliciesQuery): Promise<EffectivePolicy[]> {
  if (query.severity && !isSeverity(query.severity)) {
    throw errors.validation([
      { field: "severity", code: "INVALID_ENUM", message: `severity must be one of: ${SEVERITIES.join(", ")}` },
    ]);
  }
  const all = await loadPolicies(deps, { organizationId: query.organizationId });
  return all.filter(
    (p) =>
      (query.enabled === undefined || p.enabled === query.enabled) &&
      (!query.category || p.category === query.category) &&
      (!query.severity || p.severity === query.severity),
  );
}
