// A configuration change's audit event, written by the service that owns the change through its
// outbox with the change itself (one document write, so neither is kept without the other). The
// identity service consumes `verdict.audit.change` and appends it to the organization's audit log.
import { TOPICS } from "@verdict/bus";
import type { AuditEventType, Clock, FieldChange } from "@verdict/kit";
import type { Outbox, PendingEvent } from "./outbox.js";

/** Who asks, as the gateway authenticated the request (proto verdict.audit.v1.AuditContext). */
export interface AuditContextInput {
  actor_type: string;
  actor_id: string;
  ip: string;
  credential_type: string;
  credential_id: string;
  request_id: string;
}

/** Data of `verdict.audit.change`: one audit event, as the owning service saw the change. */
export interface AuditChangeData {
  organization_id: string;
  type: AuditEventType;
  actor: { type: "user" | "api_key" | "system"; id: string; ip: string };
  /** How the actor authenticated (api_key, session, oauth_client); null for the instance itself. */
  credential: { type: string; id: string } | null;
  request_id: string | null;
  target_type: string;
  target_id: string;
  occurred_at: string;
  /** `changes`: the before/after of the changed fields (never a secret), and event-specific facts. */
  data: { changes?: Record<string, FieldChange> } & Record<string, unknown>;
}

export interface AuditChange {
  organizationId: string;
  type: AuditEventType;
  /** Absent: the instance itself acted (no request). */
  context: AuditContextInput | undefined;
  targetType: string;
  targetId: string;
  changes?: Record<string, FieldChange>;
  data?: Record<string, unknown>;
}

const ACTOR_TYPES = new Set(["user", "api_key"]);

/** The audit event of a change, to write through the outbox with the change. */
export function auditChangeEvent(outbox: Outbox, clock: Clock, source: string, change: AuditChange): PendingEvent {
  const ctx = change.context;
  const known = ctx && ACTOR_TYPES.has(ctx.actor_type) && ctx.actor_id;
  const data: AuditChangeData = {
    organization_id: change.organizationId,
    type: change.type,
    actor: known
      ? { type: ctx.actor_type as "user" | "api_key", id: ctx.actor_id, ip: ctx.ip }
      : { type: "system", id: "verdict", ip: ctx?.ip ?? "" },
    credential: known && ctx.credential_type ? { type: ctx.credential_type, id: ctx.credential_id } : null,
    request_id: ctx?.request_id || null,
    target_type: change.targetType,
    target_id: change.targetId,
    occurred_at: clock.now().toISOString(),
    data: { ...(change.data ?? {}), ...(change.changes ? { changes: change.changes } : {}) },
  };
  return outbox.event(TOPICS.auditChange, { source, subject: change.targetId, data });
}
