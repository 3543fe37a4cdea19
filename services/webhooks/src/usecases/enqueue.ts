// Making messages: from bus events, pings, manual redeliveries and disabled-endpoint notices.
// A message is stored before anything is sent; the delivery worker takes it from there.
import { errors, newId } from "@verdict/kit";
import { DISABLED_EVENT, disabledData, messageBody, PING_EVENT, pingData, type EventName, type SubscribableEvent } from "../domain/events.js";
import type { WebhookDeps } from "../deps.js";
import type { DeliveryRecord, EndpointRecord } from "../repo.js";
import { getWebhook } from "./endpoints.js";

function newDelivery(deps: WebhookDeps, endpoint: EndpointRecord, event: EventName, eventId: string | null, dedupeKey: string, data: Record<string, unknown>, eventTime: string): DeliveryRecord {
  const now = deps.clock.now();
  const id = newId("msg", now.getTime());
  return {
    id,
    organization_id: endpoint.organization_id,
    webhook_id: endpoint.id,
    event,
    event_id: eventId,
    dedupe_key: dedupeKey,
    body: messageBody(id, event, data, eventTime),
    status: "pending",
    next_attempt_at: now.toISOString(),
    lease_until: null,
    run_attempts: 0,
    run_started_at: null,
    attempts: [],
    version: 0,
    created_at: now.toISOString(),
    completed_at: null,
  };
}

/**
 * One message per active endpoint of the organization subscribed to the event. Idempotent on
 * the event id: a redelivered bus event makes no second message for an endpoint.
 */
export async function enqueueEvent(
  deps: WebhookDeps,
  input: { event: SubscribableEvent; eventId: string; organizationId: string; time: string; data: Record<string, unknown> },
): Promise<number> {
  if (!input.organizationId) return 0;
  const endpoints = await deps.repo.activeEndpoints(input.organizationId);
  let made = 0;
  for (const endpoint of endpoints) {
    if (!endpoint.events.includes(input.event)) continue;
    const delivery = newDelivery(deps, endpoint, input.event, input.eventId, `${input.eventId}:${endpoint.id}`, input.data, input.time);
    if (await deps.repo.insertDeliveryOnce(delivery)) made++;
  }
  if (made) deps.wake();
  return made;
}

export async function pingWebhook(deps: WebhookDeps, organizationId: string, webhookId: string): Promise<DeliveryRecord> {
  const endpoint = await getWebhook(deps, organizationId, webhookId);
  if (endpoint.status !== "active") throw disabledError();
  const time = deps.clock.now().toISOString();
  const delivery = newDelivery(deps, endpoint, PING_EVENT, null, "", pingData(organizationId, webhookId), time);
  delivery.dedupe_key = `ping:${delivery.id}`;
  await deps.repo.insertDelivery(delivery);
  deps.wake();
  return delivery;
}

/**
 * Sends a logged message again, with the same id and body, and a fresh retry schedule. A message
 * still waiting for a retry is simply made due now; one being attempted right now is left alone.
 */
export async function redeliver(deps: WebhookDeps, organizationId: string, webhookId: string, deliveryId: string): Promise<DeliveryRecord> {
  const endpoint = await getWebhook(deps, organizationId, webhookId);
  const delivery = await deps.repo.findDelivery(organizationId, deliveryId, webhookId);
  if (!delivery) throw errors.notFound("delivery", deliveryId);
  if (endpoint.status !== "active") throw disabledError();
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
  deps.logger.info({ organization_id: organizationId, webhook_id: webhookId, delivery_id: deliveryId }, "webhook message queued for redelivery");
  deps.wake();
  return updated;
}

/** Tells the organization's other active endpoints that one was disabled. */
export async function notifyDisabled(deps: WebhookDeps, disabled: EndpointRecord): Promise<void> {
  const others = await deps.repo.activeEndpoints(disabled.organization_id);
  const data = disabledData(disabled.organization_id, disabled.id, new URL(disabled.url).origin, disabled.disabled_reason ?? "", disabled.disabled_at ?? "");
  for (const endpoint of others) {
    if (endpoint.id === disabled.id) continue;
    const delivery = newDelivery(deps, endpoint, DISABLED_EVENT, null, `${DISABLED_EVENT}:${disabled.id}:${disabled.disabled_at}:${endpoint.id}`, data, disabled.disabled_at ?? deps.clock.now().toISOString());
    await deps.repo.insertDeliveryOnce(delivery);
  }
  if (others.length) deps.wake();
}

function disabledError() {
  return errors.unprocessable([{ field: "webhook_id", code: "INVALID_FORMAT", message: "the webhook is disabled; re-enable it with PATCH /v1/webhooks/{id} {\"status\": \"active\"}" }]);
}
