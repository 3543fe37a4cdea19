// Bus consumers: map events to use cases, nothing else (the bus's counterpart of grpc.ts).
// One consumer group for all instances: each event makes its messages once (and the unique
// dedupe key makes a redelivered event harmless).
import {
  TOPICS,
  type Bus,
  type EvaluationCompletedData,
  type FindingUpdatedData,
  type PolicyViolationData,
  type Subscription,
} from "@verdict/bus";
import type { WebhookDeps } from "./deps.js";
import { evaluationCompletedData, findingUpdatedData, policyViolationData } from "./domain/events.js";
import { enqueueEvent } from "./usecases/enqueueEvent.js";

export async function subscribeWebhookConsumers(deps: WebhookDeps, bus: Bus): Promise<Subscription[]> {
  return [
    await bus.subscribe<EvaluationCompletedData>(TOPICS.evaluationCompleted, "webhooks", async (e) => {
      await enqueueEvent(deps, {
        event: "evaluation.completed",
        eventId: e.id,
        organizationId: e.data?.organization_id,
        time: e.time,
        data: evaluationCompletedData(e.data),
      });
    }),
    await bus.subscribe<PolicyViolationData>(TOPICS.policyViolation, "webhooks", async (e) => {
      await enqueueEvent(deps, {
        event: "policy.violation",
        eventId: e.id,
        organizationId: e.data?.organization_id,
        time: e.time,
        data: policyViolationData(e.data),
      });
    }),
    await bus.subscribe<FindingUpdatedData>(TOPICS.findingUpdated, "webhooks", async (e) => {
      await enqueueEvent(deps, {
        event: "finding.updated",
        eventId: e.id,
        organizationId: e.data?.organization_id,
        time: e.time,
        data: findingUpdatedData(e.data),
      });
    }),
  ];
}
