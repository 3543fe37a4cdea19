// The audit events of provider connections: the provider and address, never the token or secret.
import { fieldChanges } from "@verdict/kit";
import { auditChangeEvent, type AuditContextInput, type PendingEvent } from "@verdict/outbox";
import type { IntegrationsDeps } from "../deps.js";
import type { ConnectionRecord } from "../repo.js";

const AUDITED_FIELDS = ["provider", "base_url"] as const;

export function connectionAuditEvent(
  deps: IntegrationsDeps,
  type: "integration.connected" | "integration.disconnected",
  record: ConnectionRecord,
  context: AuditContextInput | undefined,
): PendingEvent {
  const state = { ...record } as Record<string, unknown>;
  return auditChangeEvent(deps.outbox, deps.clock, "/integrations", {
    organizationId: record.organization_id,
    type,
    context,
    targetType: "connection",
    targetId: record.id,
    changes:
      type === "integration.connected"
        ? fieldChanges(null, state, AUDITED_FIELDS)
        : fieldChanges(state, null, AUDITED_FIELDS),
  });
}
