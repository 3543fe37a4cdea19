// Bus consumers: map events to use cases, nothing else (the bus's counterpart of grpc.ts).
import { TOPICS, type Bus, type EvaluationCompletedData, type Subscription } from "@verdict/bus";
import type { PolicyDeps } from "./deps.js";
import { recordEvaluation } from "./usecases/recordEvaluation.js";

export async function subscribePolicyConsumers(deps: PolicyDeps, bus: Bus): Promise<Subscription[]> {
  return [
    // Repositories show when they were last evaluated; the evaluation service announces it.
    await bus.subscribe<EvaluationCompletedData>(TOPICS.evaluationCompleted, "policy", (event) =>
      recordEvaluation(deps, event.data),
    ),
  ];
}
