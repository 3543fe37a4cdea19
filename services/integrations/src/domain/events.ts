// The integrations service's own topics (CloudEvents on the bus).

/** A verified inbound delivery that asks for a check; written with the delivery (outbox). */
export const CHANGE_RECEIVED_TOPIC = "verdict.integrations.change_received";

export interface ChangeReceivedData {
  organization_id: string;
  connection_id: string;
  delivery_id: string;
}

/**
 * A check rescheduled after a provider failure (rate limit, outage): the same delivery, tried
 * again at not_before. Written with the delivery's attempt count (outbox), so it is not lost.
 */
export const CHANGE_RETRY_TOPIC = "verdict.integrations.change_retry";

export interface ChangeRetryData extends ChangeReceivedData {
  /** The attempt this event asks for (the first delivery was attempt 1). */
  attempt: number;
  /** ISO time before which it does not run. */
  not_before: string;
}
