// A message ready to store: every way of making one (bus events, pings, notices) goes through
// here, so each gets a fresh message id, its exact body, and a first attempt due now.
import { errors, newId } from "@verdict/kit";
import { messageBody, type EventName } from "../domain/events.js";
import type { WebhookDeps } from "../deps.js";
import type { DeliveryRecord, EndpointRecord } from "../repo.js";

export function newDelivery(
  deps: WebhookDeps,
  endpoint: EndpointRecord,
  event: EventName,
  eventId: string | null,
  dedupeKey: string,
  data: Record<string, unknown>,
  eventTime: string,
): DeliveryRecord {
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

/** Ping and redelivery refuse a disabled endpoint with this. */
export function disabledWebhookError() {
  return errors.unprocessable([
    {
      field: "webhook_id",
      code: "INVALID_FORMAT",
      message: 'the webhook is disabled; re-enable it with PATCH /v1/webhooks/{id} {"status": "active"}',
    },
  ]);
}
