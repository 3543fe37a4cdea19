import { auditChangeEvent, type AuditChange, type PendingEvent } from "@verdict/outbox";
import type { WebhookDeps } from "../deps.js";

/** The audit event of a change the webhooks service owns, written through the outbox with it. */
export function webhookAuditEvent(deps: WebhookDeps, change: Omit<AuditChange, "targetType">): PendingEvent {
  return auditChangeEvent(deps.outbox, deps.clock, "/webhooks", { ...change, targetType: "webhook" });
}
