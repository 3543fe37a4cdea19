// The webhooks service's collections, through the Store port.
import type { Collection, Store } from "@verdict/store";
import type { EventName, SubscribableEvent } from "./domain/events.js";

export type EndpointStatus = "active" | "disabled";

export interface EndpointRecord {
  id: string;
  organization_id: string;
  url: string;
  events: SubscribableEvent[];
  /** The endpoint secret, sealed with the master key (SecretBox); never returned by the API. */
  secret_sealed: string;
  status: EndpointStatus;
  disabled_reason: string | null;
  disabled_at: string | null;
  /** The last time the endpoint answered 2xx: an endpoint silent for a whole schedule is disabled. */
  last_success_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface AttemptRecord {
  attempt: number;
  attempted_at: string;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  response_excerpt: string | null;
}

export type DeliveryStatus = "pending" | "succeeded" | "failed";

/**
 * One message to one endpoint, persisted before its first attempt. Its id is the message id
 * (`webhook-id`), the same on every attempt. A worker claims a due message by moving
 * `next_attempt_at` forward (a lease) with a compare-and-set on `version`; if the worker dies
 * mid-attempt the lease runs out and the message is due again.
 */
export interface DeliveryRecord {
  id: string;
  organization_id: string;
  webhook_id: string;
  event: EventName;
  /** The bus event it was made from; null for pings and notices. */
  event_id: string | null;
  /** Unique: one message per (event, endpoint), however often the bus redelivers the event. */
  dedupe_key: string;
  /** The exact JSON body sent on every attempt. */
  body: string;
  status: DeliveryStatus;
  /** When the next attempt is due (or the current attempt's lease ends); null once finished. */
  next_attempt_at: string | null;
  /** Set while a worker attempts the message: until then nobody else may. */
  lease_until: string | null;
  /** Attempts in the current run of the schedule (a manual redelivery starts a new run). */
  run_attempts: number;
  /** When the current run began: the endpoint is disabled if it never succeeded since then. */
  run_started_at: string | null;
  attempts: AttemptRecord[];
  version: number;
  created_at: string;
  completed_at: string | null;
}

/** Older attempts are dropped from the log past this many (a message retried by hand for weeks). */
export const MAX_LOGGED_ATTEMPTS = 50;

export class WebhookRepo {
  readonly endpoints: Collection<EndpointRecord>;
  readonly deliveries: Collection<DeliveryRecord>;

  constructor(store: Store) {
    this.endpoints = store.collection<EndpointRecord>("webhooks_endpoints");
    this.deliveries = store.collection<DeliveryRecord>("webhooks_deliveries");
  }

  async init(): Promise<void> {
    await this.endpoints.ensureIndexes([{ name: "org_status", fields: { organization_id: 1, status: 1 } }]);
    await this.deliveries.ensureIndexes([
      { name: "dedupe", fields: { dedupe_key: 1 }, unique: true },
      { name: "due", fields: { status: 1, next_attempt_at: 1 } },
      { name: "org_webhook", fields: { organization_id: 1, webhook_id: 1 } },
    ]);
  }
}
