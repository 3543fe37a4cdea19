import { errors, type FieldError } from "@verdict/kit";
import { policyVersion, toResolved, type EffectivePolicy, type ResolvedPolicy } from "../domain/policy.js";
import type { PolicyDeps } from "../deps.js";
import type { Resolution } from "../resolutionCache.js";
import { effectivePolicies, loadPolicyRecords } from "./loadPolicies.js";

function select(all: EffectivePolicy[], policyIds: string[]): ResolvedPolicy[] {
  if (!policyIds.length) return all.filter((p) => p.enabled).map(toResolved);

  const byId = new Map(all.map((p) => [p.id, p]));
  // Field paths name the request's `policies` list, which is what the REST client sent.
  const unknown: FieldError[] = policyIds.flatMap((id, i) =>
    byId.has(id) ? [] : [{ field: `policies[${i}]`, code: "INVALID_ENUM" as const, message: `Unknown policy '${id}'` }],
  );
  if (unknown.length)
    throw errors.unprocessable(
      unknown,
      unknown.length === 1 ? unknown[0]!.message : `${unknown.length} unknown policies`,
    );

  return [...new Set(policyIds)]
    .map((id) => byId.get(id)!)
    .filter((p) => p.enabled)
    .map(toResolved);
}

export interface ResolvePoliciesQuery {
  organizationId: string;
  policyIds: string[];
}

/**
 * The policies an evaluation runs: every enabled policy when none are named, else the named
 * ones. Naming a policy selects among the enabled ones; it does not switch a disabled policy
 * back on. Disabling is how an organization says "do not run this", and a CI job that still
 * names the policy must not silently override that decision.
 */
export async function resolvePolicies(
  deps: PolicyDeps,
  { organizationId, policyIds }: ResolvePoliciesQuery,
): Promise<Resolution> {
  const records = await loadPolicyRecords(deps, { organizationId });
  const key = JSON.stringify([policyIds, records]);
  const cached = deps.resolutions.get(key);
  if (cached) return cached;
  const policies = select(effectivePolicies(records), policyIds);
  const resolution = { policies, version: policyVersion(policies) };
  deps.resolutions.set(key, resolution);
  return resolution;
}
