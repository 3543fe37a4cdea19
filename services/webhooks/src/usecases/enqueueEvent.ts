// Makes the messages a bus event asks for. A message is stored before anything is sent; the
// delivery worker takes it from there.
import type { SubscribableEvent } from "../domain/events.js";
import type { WebhookDeps } from "../deps.js";
import { newDelivery } from "./newDelivery.js";

/**
 * One message per active endpoint of the organization subscribed to the event. Idempotent on
 * the event id: a redelivered bus event makes no second message for an endpoint.
 */
export interface EnqueueEventCommand {
  event: SubscribableEvent;
  eventId: string;
  organizationId: string;
  time: string;
  data: Record<string, unknown>;
}

export async function enqueueEvent(deps: WebhookDeps, input: EnqueueEventCommand): Promise<number> {
  if (!input.organizationId) return 0;
  const endpoints = await deps.repo.activeEndpoints(input.organizationId);
  let made = 0;
  for (const endpoint of endpoints) {
    if (!endpoint.events.includes(input.event)) continue;
    const delivery = newDelivery(deps, {
      endpoint,
      event: input.event,
      eventId: input.eventId,
      dedupeKey: `${input.eventId}:${endpoint.id}`,
      data: input.data,
      time: input.time,
    });
    if (await deps.repo.insertDeliveryOnce(delivery)) made++;
  }
  if (made) deps.wake();
  return made;
}
