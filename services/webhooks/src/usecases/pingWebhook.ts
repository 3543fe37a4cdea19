// Sends a test message (webhook.ping) to an active endpoint.
import { PING_EVENT, pingData } from "../domain/events.js";
import type { WebhookDeps } from "../deps.js";
import type { DeliveryRecord } from "../repo.js";
import { getWebhook, type WebhookRef } from "./getWebhook.js";
import { disabledWebhookError } from "../domain/endpoint.js";
import { newDelivery } from "./newDelivery.js";

export async function pingWebhook(deps: WebhookDeps, cmd: WebhookRef): Promise<DeliveryRecord> {
  const { organizationId, webhookId } = cmd;
  const endpoint = await getWebhook(deps, cmd);
  if (endpoint.status !== "active") throw disabledWebhookError();
  const time = deps.clock.now().toISOString();
  const delivery = newDelivery(deps, {
    endpoint,
    event: PING_EVENT,
    eventId: null,
    dedupeKey: "",
    data: pingData(organizationId, webhookId),
    time,
  });
  delivery.dedupe_key = `ping:${delivery.id}`;
  await deps.repo.insertDelivery(delivery);
  deps.wake();
  return delivery;
}
