// What the audit log shows of a policy change: the fields an auditor asks about (enabled,
// severity, each setting), flattened so that a diff names the exact setting that changed.
import { fieldChanges, type AuditEventType, type FieldChange } from "@verdict/kit";

export interface AuditedPolicyState {
  enabled: boolean;
  severity: string;
  settings: Record<string, unknown>;
}

/** `enabled`, `severity` and `settings.<key>`, as one flat record. */
export function auditedFields(p: AuditedPolicyState): Record<string, unknown> {
  const out: Record<string, unknown> = { enabled: p.enabled, severity: p.severity };
  for (const [key, value] of Object.entries(p.settings)) out[`settings.${key}`] = value;
  return out;
}

/** The before/after of every audited field that differs between two states of a policy. */
export function policyChanges(
  before: AuditedPolicyState | null,
  after: AuditedPolicyState | null,
): Record<string, FieldChange> {
  const b = before ? auditedFields(before) : null;
  const a = after ? auditedFields(after) : null;
  const keys = [...new Set([...Object.keys(b ?? {}), ...Object.keys(a ?? {})])];
  return fieldChanges(b, a, keys);
}

/** An update that turns a policy off (or on) is recorded as such, whatever else it changed. */
export function policyUpdateType(changes: Record<string, FieldChange>): AuditEventType {
  const enabled = changes.enabled;
  if (enabled?.after === false) return "policy.disabled";
  if (enabled?.after === true) return "policy.enabled";
  return "policy.updated";
}
