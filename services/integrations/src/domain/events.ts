// The integrations service's own topics (CloudEvents on the bus).

/** A verified inbound delivery that asks for a check; written with the delivery (outbox). */
export const CHANGE_RECEIVED_TOPIC = "verdict.integrations.change_received";

export interface ChangeReceivedData {
  organization_id: string;
  connection_id: string;
  delivery_id: string;
}
