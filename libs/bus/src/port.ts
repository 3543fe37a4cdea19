// The Bus port. Events are CloudEvents 1.0; topics are named `verdict.<domain>.<event>`.
// Delivery is at-least-once to every consumer group subscribed to a topic (one member of a group
// gets each event), so handlers must be idempotent on the event id (adapters also skip an id a
// group has already taken, from a bounded memory). A handler that keeps failing is retried with
// backoff and then dead-lettered to `<topic>.dlq`.

export interface CloudEvent<T = unknown> {
  specversion: "1.0";
  id: string;
  source: string;
  type: string;
  time: string;
  subject?: string;
  datacontenttype: "application/json";
  data: T;
}

export interface PublishInput<T> {
  source: string;
  subject?: string;
  data: T;
  /** Set to re-publish an existing event (outbox relay); a new id is made otherwise. */
  id?: string;
}

export type Handler<T> = (event: CloudEvent<T>) => Promise<void>;

/**
 * Thrown by a handler that cannot take an event because its process is stopping (its workers are
 * closed): the event is neither retried nor dead-lettered. Kafka leaves its offset uncommitted, so
 * the group's next consumer (this service after its restart) gets it again; the in-process bus
 * keeps nothing across a restart, and a service that uses it recovers such work from its store
 * when it starts.
 */
export class Redeliver extends Error {
  constructor(message = "the consumer is stopping: the event is left for the next one") {
    super(message);
    this.name = "Redeliver";
  }
}

export interface SubscribeOptions {
  /** Attempts before the event goes to the dead-letter topic. */
  maxAttempts?: number;
}

export interface Subscription {
  unsubscribe(): Promise<void>;
}

export interface Bus {
  publish<T>(topic: string, input: PublishInput<T>): Promise<CloudEvent<T>>;
  subscribe<T>(topic: string, group: string, handler: Handler<T>, options?: SubscribeOptions): Promise<Subscription>;
  /** Stops taking events and waits for in-flight handlers to finish. */
  close(): Promise<void>;
}

export const TOPICS = {
  evaluationRequested: "verdict.evaluation.requested",
  evaluationCompleted: "verdict.evaluation.completed",
  policyViolation: "verdict.policy.violation",
  /** A finding silenced by an inline verdict-ignore comment: a bypass event for compliance. */
  policyBypassed: "verdict.policy.bypassed",
  policyChanged: "verdict.policy.changed",
  reportRequested: "verdict.report.requested",
  /** A member triaged a finding (false positive, accepted risk) or took the triage back. */
  findingUpdated: "verdict.finding.updated",
  /** A report ended failed: gateways give the organization its report quota back. */
  reportFailed: "verdict.report.failed",
  keyRevoked: "verdict.identity.key_revoked",
  /** A security event of the audit log (sign-in, MFA change, key, role, invitation, removal). */
  auditRecorded: "verdict.identity.audit_recorded",
  /**
   * A configuration change in a service other than identity (policy, repository, webhook,
   * evaluation deletion, report): written with the change through the owning service's outbox;
   * identity appends it to the organization's audit log (and then publishes audit_recorded).
   */
  auditChange: "verdict.audit.change",
  /** A webhook endpoint was disabled (410 Gone, or failing past its whole retry schedule). */
  webhookDisabled: "verdict.webhooks.endpoint_disabled",
  /** A provider connection turned broken: the provider refused its token (or GitHub App). */
  connectionBroken: "verdict.integrations.connection_broken",
  /** A broken provider connection worked again. */
  connectionRestored: "verdict.integrations.connection_restored",
} as const;

export const deadLetterTopic = (topic: string) => `${topic}.dlq`;
