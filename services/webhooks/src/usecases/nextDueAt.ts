import type { WebhookDeps } from "../deps.js";

/** The earliest time a message is due, for the delivery worker's sleep. */
export async function nextDueAt(deps: WebhookDeps): Promise<Date | undefined> {
  const next = await deps.repo.nextDueDelivery();
  return next?.next_attempt_at ? new Date(next.next_attempt_at) : undefined;
}
