import { errors } from "@verdict/kit";
import type { AuditContextInput, PendingEvent } from "@verdict/outbox";
import { findBuiltin } from "../domain/builtins/index.js";
import { policyChanges, policyUpdateType } from "../domain/policyAudit.js";
import { isSeverity, SEVERITIES, type EffectivePolicy, type Severity } from "../domain/policy.js";
import { checkSettingsPatch, NO_SETTINGS, settingsAfterPatch, type SettingsSchema } from "../domain/settings.js";
import type { PolicyDeps } from "../deps.js";
import { policyDocId, type CustomPolicyRecord, type OverrideRecord } from "../repo.js";
import { logPolicyChanged, policyAuditEvent, policyChangedEvent } from "./events.js";
import { getPolicy } from "./getPolicy.js";

export interface UpdatePolicyCommand {
  organizationId: string;
  policyId: string;
  enabled?: boolean;
  severity?: string;
  /** Merged into the stored settings; a null value resets that key to its default. */
  settings?: Record<string, unknown>;
  /** Who asks, for the audit event written with the change. */
  audit?: AuditContextInput | undefined;
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
  const schema = builtin ? builtin.settings : NO_SETTINGS;
  // A missing custom policy is 404 before its settings are looked at (custom policies have no
  // settings: any key is reported as unknown).
  const before = await getPolicy(deps, cmd);
  checkSettings(cmd.policyId, schema, cmd.settings);
  const events = [
    policyChangedEvent(deps, { organizationId: cmd.organizationId, policyId: cmd.policyId, action: "updated" }),
    auditEvent(deps, cmd, before, schema),
  ];
  if (builtin) await upsertOverride(deps, cmd, events);
  else await updateCustom(deps, cmd, events);
  logPolicyChanged(deps, { organizationId: cmd.organizationId, policyId: cmd.policyId, action: "updated" });
  return getPolicy(deps, cmd);
}

/** The update's audit event: the before/after of what it changes, known before it is written. */
function auditEvent(
  deps: PolicyDeps,
  cmd: UpdatePolicyCommand,
  before: EffectivePolicy,
  schema: SettingsSchema,
): PendingEvent {
  const after = {
    enabled: cmd.enabled ?? before.enabled,
    severity: cmd.severity ?? before.severity,
    settings: settingsAfterPatch(schema, before.settings, cmd.settings ?? {}),
  };
  const changes = policyChanges(before, after);
  return policyAuditEvent(deps, {
    organizationId: cmd.organizationId,
    type: policyUpdateType(changes),
    context: cmd.audit,
    targetType: "policy",
    targetId: cmd.policyId,
    changes,
  });
}

/** Writes a built-in's override: only the keys the command names change. */
async function upsertOverride(deps: PolicyDeps, cmd: UpdatePolicyCommand, events: PendingEvent[]): Promise<void> {
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
  const initial: OverrideRecord = {
    id,
    organization_id: cmd.organizationId,
    policy_id: cmd.policyId,
    settings,
    updated_at: now,
    ...(cmd.enabled !== undefined ? { enabled: cmd.enabled } : {}),
    ...(cmd.severity !== undefined ? { severity: cmd.severity as Severity } : {}),
  };
  await deps.repo.upsertOverride(initial, set, unset, events);
}

async function updateCustom(deps: PolicyDeps, cmd: UpdatePolicyCommand, events: PendingEvent[]): Promise<void> {
  const set: Partial<CustomPolicyRecord> = { updated_at: deps.clock.now().toISOString() };
  if (cmd.enabled !== undefined) set.enabled = cmd.enabled;
  if (cmd.severity !== undefined) set.severity = cmd.severity as Severity;
  if (!(await deps.repo.updateCustom(cmd.organizationId, cmd.policyId, set, events)))
    throw errors.notFound("policy", cmd.policyId);
}
