// Changes an endpoint's URL, events or status.
import { errors } from "@verdict/kit";
import { checkUrl, normalizeEvents } from "../domain/endpoint.js";
import type { WebhookDeps } from "../deps.js";
import type { AuditContextInput } from "@verdict/outbox";
import { endpointChanges } from "../domain/audit.js";
import type { EndpointRecord } from "../repo.js";
import { webhookAuditEvent } from "./auditEvent.js";
import { getWebhook } from "./getWebhook.js";

export interface UpdateWebhookCommand {
  organizationId: string;
  webhookId: string;
  url?: string;
  events?: string[];
  status?: string;
  /** Who asks, for the audit event written with the change. */
  audit?: AuditContextInput | undefined;
}

/**
 * Changes an endpoint. Setting `status: "active"` re-enables a disabled endpoint (after its
 * receiver was fixed); its messages that failed meanwhile can be sent again by redelivery.
 */
export async function updateWebhook(deps: WebhookDeps, cmd: UpdateWebhookCommand): Promise<EndpointRecord> {
  const endpoint = await getWebhook(deps, cmd);
  const normalized = cmd.events ? normalizeEvents(cmd.events) : undefined;
  const problems = [...(normalized?.problems ?? [])];
  if (cmd.status !== undefined && cmd.status !== "active" && cmd.status !== "disabled") {
    problems.push({ field: "status", code: "INVALID_ENUM", message: "status must be active or disabled" });
  }
  if (cmd.url !== undefined && !cmd.url)
    problems.push({ field: "url", code: "REQUIRED", message: "url must not be empty" });
  if (problems.length) throw errors.validation(problems);
  const rules = cmd.url ? checkUrl(cmd.url, deps.egress) : [];
  if (rules.length) throw errors.unprocessable(rules);

  const now = deps.clock.now().toISOString();
  const set: Partial<EndpointRecord> = { updated_at: now };
  if (cmd.url) set.url = cmd.url;
  if (normalized) set.events = normalized.events;
  if (cmd.status === "active" && endpoint.status !== "active")
    Object.assign(set, { status: "active", disabled_reason: null, disabled_at: null });
  if (cmd.status === "disabled" && endpoint.status !== "disabled")
    Object.assign(set, { status: "disabled", disabled_reason: "Disabled by the organization", disabled_at: now });
  const audit = webhookAuditEvent(deps, {
    organizationId: cmd.organizationId,
    type: "webhook.updated",
    context: cmd.audit,
    targetId: endpoint.id,
    changes: endpointChanges(endpoint, { ...endpoint, ...set }),
  });
  const updated = await deps.repo.updateEndpoint(cmd.organizationId, endpoint.id, set, [audit]);
  if (!updated) throw errors.notFound("webhook", cmd.webhookId);
  deps.logger.info(
    { organization_id: cmd.organizationId, webhook_id: endpoint.id, status: updated.status, events: updated.events },
    "webhook updated",
  );
  return updated;
}
