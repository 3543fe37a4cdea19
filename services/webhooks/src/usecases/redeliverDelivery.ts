// Sends a logged message again (POST /v1/webhooks/{id}/deliveries/{delivery_id}/redeliver).
import { errors } from "@verdict/kit";
import type { WebhookDeps } from "../deps.js";
import type { DeliveryRecord } from "../repo.js";
import { getWebhook, type WebhookRef } from "./getWebhook.js";
import { disabledWebhookError } from "../domain/endpoint.js";

/**
 * Sends a logged message again, with the same id and body, and a fresh retry schedule. A message
 * still waiting for a retry is simply made due now; one being attempted right now is left alone.
 */
export interface RedeliverCommand extends WebhookRef {
  deliveryId: string;
}

export async function redeliverDelivery(deps: WebhookDeps, cmd: RedeliverCommand): Promise<DeliveryRecord> {
  const { organizationId, webhookId, deliveryId } = cmd;
  const endpoint = await getWebhook(deps, cmd);
  const delivery = await deps.repo.findDelivery(organizationId, deliveryId, webhookId);
  if (!delivery) throw errors.notFound("delivery", deliveryId);
  if (endpoint.status !== "active") throw disabledWebhookError();
  const now = deps.clock.now();
  if (delivery.lease_until && delivery.lease_until > now.toISOString()) return delivery;
  const updated = await deps.repo.updateDelivery(delivery, {
    status: "pending",
    next_attempt_at: now.toISOString(),
    lease_until: null,
    ...(delivery.status === "pending" ? {} : { run_attempts: 0, run_started_at: null, completed_at: null }),
  });
  // Lost a race with a worker: answer the message as it is now.
  if (!updated) return (await deps.repo.findDelivery(organizationId, delivery.id))!;
  deps.logger.info(
    { organization_id: organizationId, webhook_id: webhookId, delivery_id: deliveryId },
    "webhook message queued for redelivery",
  );
  deps.wake();
  return updated;
}
