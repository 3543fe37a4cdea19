// A message ready to store: every way of making one (bus events, pings, notices) goes through
// here, so each gets a fresh message id, its exact body, and a first attempt due now.
import { newId } from "@verdict/kit";
import { messageBody, type EventName } from "../domain/events.js";
import type { WebhookDeps } from "../deps.js";
import type { DeliveryRecord, EndpointRecord } from "../repo.js";

export interface NewDeliveryCommand {
  endpoint: EndpointRecord;
  event: EventName;
  /** The bus event it comes from, if any. */
  eventId: string | null;
  /** One message per key (a redelivered bus event makes no second one). */
  dedupeKey: string;
  data: Record<string, unknown>;
  /** When the event happened. */
  time: string;
}

export function newDelivery(deps: WebhookDeps, cmd: NewDeliveryCommand): DeliveryRecord {
  const { endpoint, event, data } = cmd;
  const now = deps.clock.now();
  const id = newId("msg", now.getTime());
  return {
    id,
    organization_id: endpoint.organization_id,
    webhook_id: endpoint.id,
    event,
    event_id: cmd.eventId,
    dedupe_key: cmd.dedupeKey,
    body: messageBody(id, event, data, cmd.time),
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
