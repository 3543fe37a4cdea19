// Tells an organization's other endpoints that one of its endpoints was disabled.
import { DISABLED_EVENT, disabledData } from "../domain/events.js";
import type { WebhookDeps } from "../deps.js";
import type { EndpointRecord } from "../repo.js";
import { newDelivery } from "./newDelivery.js";

/** Tells the organization's other active endpoints that one was disabled. */
export async function notifyDisabled(deps: WebhookDeps, disabled: EndpointRecord): Promise<void> {
  const others = await deps.repo.activeEndpoints(disabled.organization_id);
  const data = disabledData(
    disabled.organization_id,
    disabled.id,
    new URL(disabled.url).origin,
    disabled.disabled_reason ?? "",
    disabled.disabled_at ?? "",
  );
  for (const endpoint of others) {
    if (endpoint.id === disabled.id) continue;
    const delivery = newDelivery(deps, {
      endpoint,
      event: DISABLED_EVENT,
      eventId: null,
      dedupeKey: `${DISABLED_EVENT}:${disabled.id}:${disabled.disabled_at}:${endpoint.id}`,
      data,
      time: disabled.disabled_at ?? deps.clock.now().toISOString(),
    });
    await deps.repo.insertDeliveryOnce(delivery);
  }
  if (others.length) deps.wake();
}
