// Removes an endpoint, with its messages and their log.
import { errors } from "@verdict/kit";
import type { AuditContextInput } from "@verdict/outbox";
import { endpointChanges } from "../domain/audit.js";
import type { WebhookDeps } from "../deps.js";
import { webhookAuditEvent } from "./auditEvent.js";
import { getWebhook, type WebhookRef } from "./getWebhook.js";

export interface DeleteWebhookCommand extends WebhookRef {
  /** Who asks, for the audit event written with the change. */
  audit?: AuditContextInput | undefined;
}

export async function deleteWebhook(deps: WebhookDeps, cmd: DeleteWebhookCommand): Promise<void> {
  const { organizationId, webhookId } = cmd;
  const endpoint = await getWebhook(deps, cmd);
  const audit = webhookAuditEvent(deps, {
    organizationId,
    type: "webhook.deleted",
    context: cmd.audit,
    targetId: webhookId,
    changes: endpointChanges(endpoint, null),
  });
  // Its messages and their log go with it.
  const { deleted, deliveriesRemoved } = await deps.repo.deleteEndpoint(organizationId, webhookId, [audit]);
  if (!deleted) throw errors.notFound("webhook", webhookId);
  deps.logger.info(
    { organization_id: organizationId, webhook_id: webhookId, deliveries_removed: deliveriesRemoved },
    "webhook deleted",
  );
}
