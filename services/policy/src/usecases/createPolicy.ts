import { errors } from "@verdict/kit";
import { DuplicateKeyError } from "@verdict/store";
import { findBuiltin } from "../domain/builtins/index.js";
import { buildCustomPolicy, checkCustomPolicyShape, type CustomPolicyInput } from "../domain/customPolicy.js";
import { effectiveCustom } from "../domain/effective.js";
import type { EffectivePolicy } from "../domain/policy.js";
import type { PolicyDeps } from "../deps.js";
import { checkPatterns } from "./checkPatterns.js";
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
  // Cheap refusals before any pattern is compiled: the id taken, the organization's budget spent.
  if (await deps.repo.findCustom(cmd.organizationId, cmd.policy.id)) {
    throw errors.alreadyExists("policy", cmd.policy.id);
  }
  const max = deps.budgets.maxPatternsPerOrganization;
  const used = await deps.repo.customPatternCount(cmd.organizationId);
  if (used + cmd.policy.patterns.length > max) {
    const message = `An organization's custom policies may have at most ${max} patterns together; ${used} are in use`;
    throw errors.unprocessable(
      [{ field: "patterns", code: "MAX_SIZE_EXCEEDED", message, max: Math.max(0, max - used) }],
      message,
    );
  }
  const { problems: rules } = await checkPatterns(deps, {
    organizationId: cmd.organizationId,
    patterns: cmd.policy.patterns,
  });
  if (rules.length)
    throw errors.unprocessable(rules, rules.length === 1 ? rules[0]!.message : "Some patterns cannot be used");

  const policy = buildCustomPolicy(cmd.policy, deps.clock.now().toISOString());
  try {
    // The unique document id makes a concurrent create of the same id fail here, not duplicate.
    const event = policyChangedEvent(deps, {
      organizationId: cmd.organizationId,
      policyId: policy.id,
      action: "created",
    });
    await deps.repo.insertCustom(cmd.organizationId, policy, event);
  } catch (err) {
    if (err instanceof DuplicateKeyError) throw errors.alreadyExists("policy", policy.id);
    throw err;
  }
  logPolicyChanged(deps, { organizationId: cmd.organizationId, policyId: policy.id, action: "created" });
  return effectiveCustom(policy);
}
