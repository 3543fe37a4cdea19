// An organization's policies as they take effect: every built-in (with its overrides) and its
// own custom policies, never another organization's. Shared by the reads and by resolution.
import { BUILTIN_POLICIES } from "../domain/builtins/index.js";
import { effectiveBuiltin, effectiveCustom } from "../domain/effective.js";
import { comparePolicies, type EffectivePolicy } from "../domain/policy.js";
import type { PolicyDeps } from "../deps.js";
import { toCustomPolicy, type CustomPolicyRecord, type OverrideRecord } from "../repo.js";

/** The stored records an organization's policies are computed from (built-ins are code). */
export interface PolicyRecords {
  overrides: OverrideRecord[];
  custom: CustomPolicyRecord[];
}

export interface LoadPoliciesQuery {
  organizationId: string;
}

export async function loadPolicyRecords(
  deps: PolicyDeps,
  { organizationId }: LoadPoliciesQuery,
): Promise<PolicyRecords> {
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
export async function loadPolicies(
  deps: PolicyDeps,
  { organizationId }: LoadPoliciesQuery,
): Promise<EffectivePolicy[]> {
  return effectivePolicies(await loadPolicyRecords(deps, { organizationId }));
}
