import { errors } from "@verdict/kit";
import { findBuiltin } from "../domain/builtins/index.js";
import { isSeverity, SEVERITIES, type EffectivePolicy, type Severity } from "../domain/policy.js";
import { checkSettingsPatch, NO_SETTINGS, type SettingsSchema } from "../domain/settings.js";
import type { PolicyDeps } from "../deps.js";
import { policyDocId, type CustomPolicyRecord, type OverrideRecord } from "../repo.js";
import { logPolicyChanged, policyChangedEvent } from "./events.js";
import { getPolicy } from "./getPolicy.js";

export interface UpdatePolicyCommand {
  organizationId: string;
  policyId: string;
  enabled?: boolean;
  severity?: string;
  /** Merged into the stored settings; a null value resets that key to its default. */
  settings?: Record<string, unknown>;
}

function checkSettings(policyId: string, schema: SettingsSchema, patch: Record<string, unknown> | undefined): void {
  const problems = checkSettingsPatch(policyId, schema, patch ?? {});
  if (problems.length)
    throw errors.unprocessable(problems, problems.length === 1 ? problems[0]!.message : "Invalid settings");
}

export async function updatePolicy(deps: PolicyDeps, cmd: UpdatePolicyCommand): Promise<EffectivePolicy> {
  if (cmd.severity !== undefined && !isSeverity(cmd.severity)) {
    throw errors.validation([
      { field: "severity", code: "INVALID_ENUM", message: `severity must be one of: ${SEVERITIES.join(", ")}` },
    ]);
  }
  const builtin = findBuiltin(cmd.policyId);
  if (builtin) {
    checkSettings(cmd.policyId, builtin.settings, cmd.settings);
    await upsertOverride(deps, cmd);
  } else {
    await updateCustom(deps, cmd);
  }
  logPolicyChanged(deps, { organizationId: cmd.organizationId, policyId: cmd.policyId, action: "updated" });
  return getPolicy(deps, cmd);
}

/** Writes a built-in's override: only the keys the command names change. */
async function upsertOverride(deps: PolicyDeps, cmd: UpdatePolicyCommand): Promise<void> {
  const id = policyDocId(cmd.organizationId, cmd.policyId);
  const now = deps.clock.now().toISOString();
  const set: Record<string, unknown> = { updated_at: now };
  const unset: string[] = [];
  const settings: Record<string, unknown> = {};
  if (cmd.enabled !== undefined) set.enabled = cmd.enabled;
  if (cmd.severity !== undefined) set.severity = cmd.severity;
  for (const [key, value] of Object.entries(cmd.settings ?? {})) {
    if (value === null) unset.push(`settings.${key}`);
    else set[`settings.${key}`] = settings[key] = value;
  }
  const event = policyChangedEvent(deps, {
    organizationId: cmd.organizationId,
    policyId: cmd.policyId,
    action: "updated",
  });
  const initial: OverrideRecord = {
    id,
    organization_id: cmd.organizationId,
    policy_id: cmd.policyId,
    settings,
    updated_at: now,
    ...(cmd.enabled !== undefined ? { enabled: cmd.enabled } : {}),
    ...(cmd.severity !== undefined ? { severity: cmd.severity as Severity } : {}),
  };
  await deps.repo.upsertOverride(initial, set, unset, event);
}

async function updateCustom(deps: PolicyDeps, cmd: UpdatePolicyCommand): Promise<void> {
  if (!(await deps.repo.findCustom(cmd.organizationId, cmd.policyId))) throw errors.notFound("policy", cmd.policyId);
  // Custom policies have no settings: any key is reported as unknown.
  checkSettings(cmd.policyId, NO_SETTINGS, cmd.settings);
  const set: Partial<CustomPolicyRecord> = { updated_at: deps.clock.now().toISOString() };
  if (cmd.enabled !== undefined) set.enabled = cmd.enabled;
  if (cmd.severity !== undefined) set.severity = cmd.severity as Severity;
  const event = policyChangedEvent(deps, {
    organizationId: cmd.organizationId,
    policyId: cmd.policyId,
    action: "updated",
  });
  if (!(await deps.repo.updateCustom(cmd.organizationId, cmd.policyId, set, event)))
    throw errors.notFound("policy", cmd.policyId);
}
