// At start-up: re-announce evaluations left pending by a stop or a crash (the in-process bus
// keeps nothing across restarts; a broker may have lost an unacknowledged publish), and drop
// job files whose evaluation never got stored (a crash between the two writes) or is gone.
import type { EvaluationDeps } from "../deps.js";
import { republishRequested } from "./events.js";

const ORPHAN_AGE_MS = 10 * 60_000;

export async function recoverPending(deps: EvaluationDeps): Promise<number> {
  const pending = await deps.repo.pending();
  const live = new Set(pending.map((e) => e.id));
  // Every queued evaluation has a file at index 0: one document per evaluation to look at.
  // Only old orphans go: another instance may be between its two writes right now.
  const cutoff = new Date(deps.clock.now().getTime() - ORPHAN_AGE_MS).toISOString();
  for (const first of await deps.repo.jobFiles.find({ index: 0, created_at: { $lt: cutoff } })) {
    if (!live.has(first.evaluation_id)) await deps.jobs.drop(first.evaluation_id);
  }
  for (const e of pending) await republishRequested(deps, e.organization_id, e.id);
  if (pending.length) deps.logger.info({ count: pending.length }, "re-queued pending evaluations");
  return pending.length;
}
