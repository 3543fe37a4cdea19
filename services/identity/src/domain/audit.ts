// The audit log's event types: every security-relevant change, as an append-only record.
import { AUDIT_EVENT_TYPES, type AuditEventType } from "@verdict/kit";
import { auditEventHash, GENESIS_HASH, type AuditHashInput } from "@verdict/sdk";

/** The audit log's event types (one list, in @verdict/kit, for identity and the gateway's schemas). */
export const AUDIT_TYPES = AUDIT_EVENT_TYPES;
export type AuditType = AuditEventType;

export function isAuditType(value: string): value is AuditType {
  return (AUDIT_TYPES as readonly string[]).includes(value);
}

/**
 * An event's place in its organization's hash chain: the number after the last event and the
 * links (the format is @verdict/sdk's auditChain, which `verdict audit verify` checks).
 */
export function chainAuditEvent<T extends Omit<AuditHashInput, "seq" | "prev_hash">>(
  event: T,
  last: { seq: number; hash: string } | null,
): T & { seq: number; prev_hash: string; hash: string } {
  const linked = { ...event, seq: (last?.seq ?? 0) + 1, prev_hash: last?.hash ?? GENESIS_HASH };
  return { ...linked, hash: auditEventHash(linked) };
}

/** The shortest audit retention an organization may set (days); none set keeps events forever. */
export const MIN_AUDIT_RETENTION_DAYS = 90;

/** Events that occurred before this instant are past a retention of `days` days at `now`. */
export function retentionCutoff(now: Date, days: number): string {
  return new Date(now.getTime() - days * 86_400_000).toISOString();
}
