// Bus consumers: map events to use cases, nothing else (the bus's counterpart of grpc.ts).
import {
  deadLetterTopic,
  Redeliver,
  TOPICS,
  type Bus,
  type CloudEvent,
  type EvaluationRequestedData,
  type Subscription,
} from "@verdict/bus";
import { newId } from "@verdict/kit";
import type { EvaluationDeps } from "./deps.js";
import { failUndeliverable } from "./usecases/failUndeliverable.js";
import { forgetEngines } from "./usecases/forgetEngines.js";
import { processRequested } from "./usecases/processRequested.js";

/**
 * The service's consumers. A worker instance (`worker`) works off queued evaluations; every
 * instance drops its own compiled engines when an organization's policies change.
 */
export async function subscribeEvaluationConsumers(
  deps: EvaluationDeps,
  bus: Bus,
  opts: {
    worker: boolean;
    /** Whether the service is stopping: work that fails then (its scan threads closed) is left for the next worker. */
    stopping?: () => boolean;
  },
): Promise<Subscription[]> {
  const subscriptions: Subscription[] = [];
  if (opts.worker) {
    subscriptions.push(
      // Workers share one group: each queued evaluation is taken by one of them.
      await bus.subscribe<EvaluationRequestedData>(TOPICS.evaluationRequested, "evaluation-workers", (e) =>
        processRequested(deps, { organizationId: e.data.organization_id, evaluationId: e.data.evaluation_id }).catch(
          (err: unknown) => {
            // A stop closed the scan threads under it: not a failure of the evaluation, which stays
            // pending (retried now it would fail again, and be dead-lettered: failed for good).
            if (opts.stopping?.())
              throw new Redeliver(
                `evaluation ${e.data.evaluation_id} is left for the next worker: this one is stopping`,
              );
            throw err;
          },
        ),
      ),
      // Work that kept failing (a service down past every retry) must not stay pending forever.
      await bus.subscribe<{ event: CloudEvent<EvaluationRequestedData>; error: string }>(
        deadLetterTopic(TOPICS.evaluationRequested),
        "evaluation-workers",
        (e) =>
          failUndeliverable(deps, {
            organizationId: e.data.event.data.organization_id,
            evaluationId: e.data.event.data.evaluation_id,
            error: e.data.error,
          }),
      ),
    );
  }
  subscriptions.push(
    // Every instance drops its own cached engines: a group per instance.
    await bus.subscribe<{ organization_id: string }>(TOPICS.policyChanged, `evaluation-engines-${newId("evt")}`, (e) =>
      forgetEngines(deps, { organizationId: e.data.organization_id }),
    ),
  );
  return subscriptions;
}
