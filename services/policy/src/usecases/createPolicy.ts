import { errors } from "@verdict/kit";
import type { AuditContextInput } from "@verdict/outbox";
import { DuplicateKeyError } from "@verdict/store";
import { findBuiltin } from "../domain/builtins/index.js";
import { buildCustomPolicy, checkCustomPolicyShape, type CustomPolicyInput } from "../domain/customPolicy.js";
import { effectiveCustom } from "../domain/effective.js";
import type { EffectivePolicy } from "../domain/policy.js";
import type { PolicyDeps } from "../deps.js";
import { checkPatterns } from "./checkPatterns.js";
import { policyChanges } from "../domain/policyAudit.js";
import { logPolicyChanged, policyAuditEvent, policyChangedEvent } from "./events.js";

export interface CreatePolicyCommand {
  organizationId: string;
  policy: CustomPolicyInput;
  /** Who asks, for the audit event written with the change. */
  audit?: AuditContextInput | undefined;
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
    const audit = policyAuditEvent(deps, {
      organizationId: cmd.organizationId,
      type: "policy.created",
      context: cmd.audit,
      targetType: "policy",
      targetId: policy.id,
      changes: policyChanges(null, { ...policy, settings: {} }),
      data: { name: policy.name, patterns: policy.patterns.length },
    });
    await deps.repo.insertCustom(cmd.organizationId, policy, [event, audit]);
  } catch (err) {
    if (err instanceof DuplicateKeyError) throw errors.alreadyExists("policy", policy.id);
    throw err;
  }
  logPolicyChanged(deps, { organizationId: cmd.organizationId, policyId: policy.id, action: "created" });
  return effectiveCustom(policy);
}
