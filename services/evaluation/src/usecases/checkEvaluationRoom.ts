import type { EvaluationDeps } from "../deps.js";
import { isLarge } from "./createEvaluation.js";
import { checkQueueRoom } from "./queueEvaluation.js";

export interface CheckEvaluationRoomCommand {
  organizationId: string;
  files: number;
  /** The files' content, in bytes. */
  bytes: number;
}

/**
 * Whether an evaluation of this size would be accepted now, before its contents are sent: one
 * that would be queued fails with the queue cap's 429 when the organization's queue has no room
 * for it (createEvaluation checks again when the evaluation comes). True when it would be queued.
 */
export async function checkEvaluationRoom(deps: EvaluationDeps, cmd: CheckEvaluationRoomCommand): Promise<boolean> {
  if (!isLarge(deps, cmd)) return false;
  await checkQueueRoom(deps, cmd);
  return true;
}
