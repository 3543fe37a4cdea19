// One policy of an organization, effective values: a built-in with its override, or its own custom policy.
import { errors } from "@verdict/kit";
import { findBuiltin } from "../domain/builtins/index.js";
import { effectiveBuiltin, effectiveCustom } from "../domain/effective.js";
import type { EffectivePolicy } from "../domain/policy.js";
import type { PolicyDeps } from "../deps.js";
import { toCustomPolicy } from "../repo.js";

export interface GetPolicyQuery {
  organizationId: string;
  policyId: string;
}

export async function getPolicy(deps: PolicyDeps, query: GetPolicyQuery): Promise<EffectivePolicy> {
  const { organizationId, policyId } = query;
  const builtin = findBuiltin(policyId);
  if (builtin) {
    const override = await deps.repo.findOverride(organizationId, policyId);
    return effectiveBuiltin(builtin, override ?? undefined);
  }
  const record = await deps.repo.findCustom(organizationId, policyId);
  if (!record) throw errors.notFound("policy", policyId);
  return effectiveCustom(toCustomPolicy(record));
}
