// The overview's figures for one organization over a range, grouped in the store (three
// grouped queries on the org_created_at index), never by reading evaluations one by one.
import { errors } from "@verdict/kit";
import { assembleStats, parseStatsInput, type EvaluationStats } from "../domain/stats.js";
import type { EvaluationDeps } from "../deps.js";

export interface EvaluationStatsCommand {
  organizationId: string;
  since?: string;
  until?: string;
  bucket?: string;
}

export async function evaluationStats(deps: EvaluationDeps, cmd: EvaluationStatsCommand): Promise<EvaluationStats> {
  const { range, problems } = parseStatsInput(cmd, deps.clock.now());
  // The gateway's schema checked the shapes: what is left (a date that does not exist, since not
  // before until, a range too long) breaks a rule the schema cannot express, a 422.
  if (!range) throw errors.unprocessable(problems);
  const [days, policies, repositories] = await Promise.all([
    deps.repo.statsPerDay(cmd.organizationId, range.since, range.until),
    deps.repo.statsPerPolicy(cmd.organizationId, range.since, range.until),
    deps.repo.statsPerRepository(cmd.organizationId, range.since, range.until),
  ]);
  return assembleStats(range, days, policies, repositories);
}
