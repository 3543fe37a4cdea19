// Reading policies: every organization sees all built-ins (with its overrides) and its own
// custom policies, never another organization's.
import { errors } from "@verdict/kit";
import { BUILTIN_POLICIES, findBuiltin } from "../domain/builtins/index.js";
import { effectiveBuiltin, effectiveCustom } from "../domain/effective.js";
import { comparePolicies, isSeverity, SEVERITIES, type EffectivePolicy } from "../domain/policy.js";
import type { PolicyDeps } from "../deps.js";
import { toCustomPolicy, type CustomPolicyRecord, type OverrideRecord } from "../repo.js";

/** The stored records an organization's policies are computed from (built-ins are code). */
export interface PolicyRecords {
  overrides: OverrideRecord[];
  custom: CustomPolicyRecord[];
}

export async function loadPolicyRecords(deps: PolicyDeps, organizationId: string): Promise<PolicyRecords> {
  return deps.repo.policyRecords(organizationId);
}

/** Every policy the records describe, effective values, built-ins first then custom by id. */
export function effectivePolicies({ overrides, custom }: PolicyRecords): EffectivePolicy[] {
  const overrideOf = new Map(overrides.map((o) => [o.policy_id, o]));
  return [
    ...BUILTIN_POLICIES.map((def) => effectiveBuiltin(def, overrideOf.get(def.id))),
    ...custom.map((record) => effectiveCustom(toCustomPolicy(record))),
  ].sort(comparePolicies);
}

/** Every policy of the organization, effective values, built-ins first then custom by id. */
export async function loadPolicies(deps: PolicyDeps, organizationId: string): Promise<EffectivePolicy[]> {
  return effectivePolicies(await loadPolicyRecords(deps, organizationId));
}

export async function getPolicy(deps: PolicyDeps, organizationId: string, policyId: string): Promise<EffectivePolicy> {
  const builtin = findBuiltin(policyId);
  if (builtin) {
    const override = await deps.repo.findOverride(organizationId, policyId);
    return effectiveBuiltin(builtin, override ?? undefined);
  }
  const record = await deps.repo.findCustom(organizationId, policyId);
  if (!record) throw errors.notFound("policy", policyId);
  return effectiveCustom(toCustomPolicy(record));
}

export interface ListPoliciesQuery {
  organizationId: string;
  enabled?: boolean;
  category?: string;
  severity?: string;
}

/** Filters apply to effective values (an override that disables a built-in hides it from enabled=true). */
export async function listPolicies(deps: PolicyDeps, query: ListPoliciesQuery): Promise<EffectivePolicy[]> {
  if (query.severity !== undefined && !isSeverity(query.severity)) {
    throw errors.validation([{ field: "severity", code: "INVALID_ENUM", message: `severity must be one of: ${SEVERITIES.join(", ")}` }]);
  }
  const all = await loadPolicies(deps, query.organizationId);
  return all.filter(
    (p) =>
      (query.enabled === undefined || p.enabled === query.enabled) &&
      (query.category === undefined || p.category === query.category) &&
      (query.severity === undefined || p.severity === query.severity),
  );
}
