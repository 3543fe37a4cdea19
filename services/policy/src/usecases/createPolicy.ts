import { errors } from "@verdict/kit";
import { DuplicateKeyError } from "@verdict/store";
import { findBuiltin } from "../domain/builtins/index.js";
import { buildCustomPolicy, checkCustomPolicyShape, checkPatternRules, type CustomPolicyInput } from "../domain/customPolicy.js";
import { effectiveCustom } from "../domain/effective.js";
import type { EffectivePolicy } from "../domain/policy.js";
import type { PolicyDeps } from "../deps.js";
import { toCustomPolicyRecord } from "../repo.js";
import { logPolicyChanged, policyChangedEvent } from "./events.js";

export interface CreatePolicyCommand {
  organizationId: string;
  policy: CustomPolicyInput;
}

export async function createPolicy(deps: PolicyDeps, cmd: CreatePolicyCommand): Promise<EffectivePolicy> {
  const shape = checkCustomPolicyShape(cmd.policy);
  if (shape.length) throw errors.validation(shape);
  // Built-in ids are reserved in every organization: a custom policy may not shadow one.
  if (findBuiltin(cmd.policy.id)) throw errors.alreadyExists("policy", cmd.policy.id);
  const rules = checkPatternRules(cmd.policy.patterns);
  if (rules.length) throw errors.unprocessable(rules, rules.length === 1 ? rules[0]!.message : "Some patterns cannot be used");

  const policy = buildCustomPolicy(cmd.policy, deps.clock.now().toISOString());
  try {
    // The unique document id makes a concurrent create of the same id fail here, not duplicate.
    const event = policyChangedEvent(deps, cmd.organizationId, policy.id, "created");
    await deps.outbox.insert(deps.repo.custom, toCustomPolicyRecord(cmd.organizationId, policy), [event]);
  } catch (err) {
    if (err instanceof DuplicateKeyError) throw errors.alreadyExists("policy", policy.id);
    throw err;
  }
  logPolicyChanged(deps, cmd.organizationId, policy.id, "created");
  return effectiveCustom(policy);
}
