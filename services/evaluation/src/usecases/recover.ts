// At start-up: re-announce evaluations left pending by a stop or a crash (the in-process bus
// keeps nothing across restarts; a broker may have lost an unacknowledged publish), and drop
// job files whose evaluation never got stored (a crash between the two writes) or is gone.
import { TOPICS, type EvaluationRequestedData } from "@verdict/bus";
import type { EvaluationDeps } from "../deps.js";
import { EVENT_SOURCE } from "./events.js";

const ORPHAN_AGE_MS = 10 * 60_000;

export async function recoverPending(deps: EvaluationDeps): Promise<number> {
  const pending = await deps.repo.pending();
  const live = new Set(pending.map((e) => e.id));
  // Every queued evaluation has a file at index 0: one document per evaluation to look at.
  // Only old orphans go: another instance may be between its two writes right now.
  const cutoff = new Date(deps.clock.now().getTime() - ORPHAN_AGE_MS).toISOString();
  for (const evaluationId of await deps.repo.queuedFilesBefore(cutoff)) {
    if (!live.has(evaluationId)) await deps.jobs.drop(evaluationId);
  }
  // Work already stored as pending is announced again: no state changes with it, so it goes to
  // the bus directly. Workers ignore an evaluation that is not pending.
  for (const e of pending) {
    const data: EvaluationRequestedData = { organization_id: e.organization_id, evaluation_id: e.id };
    await deps.bus.publish(TOPICS.evaluationRequested, { source: EVENT_SOURCE, subject: e.id, data });
  }
  if (pending.length) deps.logger.info({ count: pending.length }, "re-queued pending evaluations");
  return pending.length;
}
