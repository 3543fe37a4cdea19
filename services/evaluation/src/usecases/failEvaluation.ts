import type { EvaluationDeps } from "../deps.js";
import type { EvaluationRecord } from "../repo.js";
import { finishPending } from "./finishEvaluation.js";

export interface FailEvaluationCommand {
  /** The evaluation as stored, pending. */
  evaluation: EvaluationRecord;
  /** Why, in words people can act on. */
  reason: string;
}

/** Marks a pending evaluation failed with a reason people can act on. */
export async function failEvaluation(deps: EvaluationDeps, cmd: FailEvaluationCommand): Promise<void> {
  await finishPending(deps, {
    next: {
      ...cmd.evaluation,
      status: "failed",
      completed_at: deps.clock.now().toISOString(),
      passed: null,
      failure_reason: cmd.reason,
    },
  });
}
