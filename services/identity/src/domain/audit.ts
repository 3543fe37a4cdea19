// The audit log's event types: every security-relevant change, as an append-only record.
import { AUDIT_EVENT_TYPES, type AuditEventType } from "@verdict/kit";

/** The audit log's event types (one list, in @verdict/kit, for identity and the gateway's schemas). */
export const AUDIT_TYPES = AUDIT_EVENT_TYPES;
export type AuditType = AuditEventType;

export function isAuditType(value: string): value is AuditType {
  return (AUDIT_TYPES as readonly string[]).includes(value);
}
