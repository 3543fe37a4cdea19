// Bus consumers: map events to use cases, nothing else (the bus's counterpart of grpc.ts).
// One consumer group for all instances: each event makes its messages once (and the unique
// dedupe key makes a redelivered event harmless).
import {
  TOPICS,
  type AuditRecordedData,
  type Bus,
  type ConnectionHealthData,
  type EvaluationCompletedData,
  type FindingUpdatedData,
  type PolicyViolationData,
  type Subscription,
} from "@verdict/bus";
import type { WebhookDeps } from "./deps.js";
import {
  auditRecordedData,
  connectionHealthData,
  evaluationCompletedData,
  findingUpdatedData,
  policyViolationData,
  type SubscribableEvent,
} from "./domain/events.js";
import { enqueueEvent } from "./usecases/enqueueEvent.js";

/** One bus topic delivered as one subscribable event, its data mapped through an allowlist. */
function relay<D extends { organization_id: string }>(
  deps: WebhookDeps,
  bus: Bus,
  topic: string,
  event: SubscribableEvent,
  dataOf: (d: D) => Record<string, unknown>,
): Promise<Subscription> {
  return bus.subscribe<D>(topic, "webhooks", async (e) => {
    await enqueueEvent(deps, {
      event,
      eventId: e.id,
      organizationId: e.data?.organization_id,
      time: e.time,
      data: dataOf(e.data),
    });
  });
}

export async function subscribeWebhookConsumers(deps: WebhookDeps, bus: Bus): Promise<Subscription[]> {
  return [
    await relay<EvaluationCompletedData>(
      deps,
      bus,
      TOPICS.evaluationCompleted,
      "evaluation.completed",
      evaluationCompletedData,
    ),
    await relay<PolicyViolationData>(deps, bus, TOPICS.policyViolation, "policy.violation", policyViolationData),
    await relay<FindingUpdatedData>(deps, bus, TOPICS.findingUpdated, "finding.updated", findingUpdatedData),
    await relay<ConnectionHealthData>(
      deps,
      bus,
      TOPICS.connectionBroken,
      "connection.broken",
      connectionHealthData("connection.broken"),
    ),
    await relay<ConnectionHealthData>(
      deps,
      bus,
      TOPICS.connectionRestored,
      "connection.restored",
      connectionHealthData("connection.restored"),
    ),
    await relay<AuditRecordedData>(deps, bus, TOPICS.auditRecorded, "audit.recorded", auditRecordedData),
  ];
}
