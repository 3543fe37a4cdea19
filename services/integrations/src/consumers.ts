// Bus consumers: map events to use cases, nothing else. One consumer group for all instances;
// a redelivered event finds its check done (processDelivery is idempotent).
import type { Bus, Subscription } from "@verdict/bus";
import type { IntegrationsDeps } from "./deps.js";
import {
  CHANGE_RECEIVED_TOPIC,
  CHANGE_RETRY_TOPIC,
  type ChangeReceivedData,
  type ChangeRetryData,
} from "./domain/events.js";
import { processDelivery, retryDelivery } from "./usecases/processChange.js";

export async function subscribeIntegrationsConsumers(deps: IntegrationsDeps, bus: Bus): Promise<Subscription[]> {
  return [
    await bus.subscribe<ChangeReceivedData>(CHANGE_RECEIVED_TOPIC, "integrations", async (e) => {
      if (e.data?.delivery_id) await processDelivery(deps, { deliveryId: e.data.delivery_id });
    }),
    // Rescheduled checks wait for their time in a group of their own, holding up no new change.
    await bus.subscribe<ChangeRetryData>(CHANGE_RETRY_TOPIC, "integrations-retry", async (e) => {
      if (e.data?.delivery_id) await retryDelivery(deps, e.data);
    }),
  ];
}
