// The webhooks service's collections, through the Store port.
import { OutboxRepository, type Outbox, type PendingEvent } from "@verdict/outbox";
import { collectionDef, DuplicateKeyError, type Store } from "@verdict/store";
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

/**
 * The collections and their indexes. org_status: an organization's (active) endpoints. dedupe:
 * one message per (event, endpoint). due: the worker's claim query. org_webhook: an endpoint's
 * delivery log.
 */
const COLLECTIONS = {
  endpoints: collectionDef<EndpointRecord>("webhooks_endpoints", [
    { name: "org_status", fields: { organization_id: 1, status: 1 } },
  ]),
  deliveries: collectionDef<DeliveryRecord>("webhooks_deliveries", [
    { name: "dedupe", fields: { dedupe_key: 1 }, unique: true },
    { name: "due", fields: { status: 1, next_attempt_at: 1 } },
    { name: "org_webhook", fields: { organization_id: 1, webhook_id: 1 } },
  ]),
};

/**
 * The webhooks service's two collections, behind methods named for what the use cases ask:
 * every query is scoped by organization except the delivery worker's, which serves them all.
 */
export class WebhookRepo extends OutboxRepository<typeof COLLECTIONS> {
  constructor(store: Store, outbox: Outbox) {
    // An endpoint disabled is announced (webhook.disabled) through the outbox: never one without the other.
    super(store, outbox, COLLECTIONS, ["endpoints"]);
  }

  // Endpoints

  countEndpoints(organizationId: string): Promise<number> {
    return this.c.endpoints.count({ organization_id: organizationId });
  }

  /** Stores a new endpoint with its events (the audit event). */
  insertEndpoint(endpoint: EndpointRecord, events: PendingEvent[] = []): Promise<void> {
    return this.outbox.insert(this.c.endpoints, endpoint, events);
  }

  /** An organization's endpoints, oldest first. */
  listEndpoints(organizationId: string): Promise<EndpointRecord[]> {
    return this.c.endpoints.find({ organization_id: organizationId }, { sort: { created_at: 1 } });
  }

  /** The organization's active endpoints (whatever their events). */
  activeEndpoints(organizationId: string): Promise<EndpointRecord[]> {
    return this.c.endpoints.find({ organization_id: organizationId, status: "active" });
  }

  findEndpoint(organizationId: string, webhookId: string): Promise<EndpointRecord | null> {
    return this.c.endpoints.findOne({ id: webhookId, organization_id: organizationId });
  }

  updateEndpoint(
    organizationId: string,
    webhookId: string,
    set: Partial<EndpointRecord>,
    events: PendingEvent[] = [],
  ): Promise<EndpointRecord | null> {
    return this.outbox.update(this.c.endpoints, { id: webhookId, organization_id: organizationId }, set, events);
  }

  /** Disables an endpoint that is still active, with the event announcing it; null when it was not (someone else won). */
  disableActiveEndpoint(
    endpoint: EndpointRecord,
    reason: string,
    at: string,
    event: PendingEvent,
  ): Promise<EndpointRecord | null> {
    return this.outbox.update(
      this.c.endpoints,
      { id: endpoint.id, organization_id: endpoint.organization_id, status: "active" },
      { status: "disabled", disabled_reason: reason, disabled_at: at, updated_at: at },
      [event],
    );
  }

  /** Removes an endpoint and its messages; false when it does not exist. Answers how many messages went with it. */
  async deleteEndpoint(
    organizationId: string,
    webhookId: string,
    events: PendingEvent[] = [],
  ): Promise<{ deleted: boolean; deliveriesRemoved: number }> {
    const deleted = await this.outbox.remove(
      this.c.endpoints,
      { id: webhookId, organization_id: organizationId },
      events,
    );
    if (!deleted) return { deleted: false, deliveriesRemoved: 0 };
    // A worker holding one of its messages finds the endpoint gone.
    const deliveriesRemoved = await this.c.deliveries.deleteMany({
      organization_id: organizationId,
      webhook_id: webhookId,
    });
    return { deleted: true, deliveriesRemoved };
  }

  // Deliveries

  /** Stores a new message; throws DuplicateKeyError when its dedupe key exists. */
  insertDelivery(delivery: DeliveryRecord): Promise<void> {
    return this.c.deliveries.insertOne(delivery);
  }

  /** Stores a new message unless one with the same dedupe key exists; answers whether it was new. */
  async insertDeliveryOnce(delivery: DeliveryRecord): Promise<boolean> {
    try {
      await this.c.deliveries.insertOne(delivery);
      return true;
    } catch (err) {
      if (err instanceof DuplicateKeyError) return false;
      throw err;
    }
  }

  findDelivery(organizationId: string, deliveryId: string, webhookId?: string): Promise<DeliveryRecord | null> {
    return this.c.deliveries.findOne({
      id: deliveryId,
      organization_id: organizationId,
      ...(webhookId ? { webhook_id: webhookId } : {}),
    });
  }

  /** A page of an endpoint's log, newest first: up to `limit` messages with ids below `before`. */
  deliveryPage(
    organizationId: string,
    webhookId: string,
    page: { limit: number; before?: string | undefined },
  ): Promise<DeliveryRecord[]> {
    return this.c.deliveries.find(
      { organization_id: organizationId, webhook_id: webhookId, ...(page.before ? { id: { $lt: page.before } } : {}) },
      { sort: { id: -1 }, limit: page.limit },
    );
  }

  /** Pending messages due by `now`, earliest first, leaving out the organizations named. */
  dueDeliveries(now: string, limit: number, excludeOrganizations: string[] = []): Promise<DeliveryRecord[]> {
    const filter = {
      status: "pending",
      next_attempt_at: { $lte: now },
      ...(excludeOrganizations.length ? { organization_id: { $nin: excludeOrganizations } } : {}),
    };
    return this.c.deliveries.find(filter, { sort: { next_attempt_at: 1 }, limit });
  }

  /** The pending message due first (for the worker's sleep). */
  async nextDueDelivery(): Promise<DeliveryRecord | undefined> {
    const [next] = await this.c.deliveries.find(
      { status: "pending", next_attempt_at: { $ne: null } },
      { sort: { next_attempt_at: 1 }, limit: 1 },
    );
    return next;
  }

  /** Leases a pending message until `leaseEnd` if nobody changed it since it was read; null when someone did. */
  claimDelivery(delivery: DeliveryRecord, leaseEnd: string): Promise<DeliveryRecord | null> {
    return this.c.deliveries.updateOne(
      { id: delivery.id, version: delivery.version, status: "pending" },
      { next_attempt_at: leaseEnd, lease_until: leaseEnd, version: delivery.version + 1 },
    );
  }

  /** Changes a message if nobody changed it since it was read (compare-and-set on version); null when someone did. */
  updateDelivery(delivery: DeliveryRecord, set: Partial<DeliveryRecord>): Promise<DeliveryRecord | null> {
    return this.c.deliveries.updateOne(
      { id: delivery.id, version: delivery.version },
      { ...set, version: delivery.version + 1 },
    );
  }
}
