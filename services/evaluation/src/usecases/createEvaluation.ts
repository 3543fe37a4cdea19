import { errors, newId } from "@verdict/kit";
import { checkEvaluationInput, isScanned, MAX_VIOLATIONS, summarize } from "../domain/evaluation.js";
import { compilePolicies, scanFile, type FileScan } from "../domain/matcher.js";
import type { EvaluationDeps } from "../deps.js";
import type { EvaluationRecord } from "../repo.js";
import { publishEvaluationResults } from "./events.js";

export interface CreateEvaluationCommand {
  organizationId: string;
  repository: string;
  ref: string;
  baseRef: string;
  files: { path: string; content: string; status: string }[];
  /** Policy ids to run; empty runs every enabled policy. */
  policies: string[];
}

/** Checks the files against the organization's policies and keeps the result (never the files). */
export async function createEvaluation(deps: EvaluationDeps, cmd: CreateEvaluationCommand): Promise<EvaluationRecord> {
  const problems = checkEvaluationInput({ repository: cmd.repository, files: cmd.files, policies: cmd.policies });
  if (problems.length) throw errors.validation(problems);
  const createdAt = deps.clock.now();
  // Errors from the policy service (unknown policy ids: 422 naming `policies[i]`) reach the
  // caller unchanged.
  const { policies } = await deps.policy.resolvePolicies({ organization_id: cmd.organizationId, policy_ids: cmd.policies });

  const compiled = compilePolicies(policies);
  const scans: FileScan[] = [];
  // Every match is counted, but only the first MAX_VIOLATIONS become violations (see summarize).
  let room = MAX_VIOLATIONS;
  for (const file of cmd.files) {
    if (!isScanned(file.status)) continue;
    const scan = scanFile(file.path, file.content, compiled, room);
    room -= scan.findings.length;
    scans.push(scan);
  }
  const { summary, passed, kept } = summarize(cmd.files.length, scans);
  const completedAt = deps.clock.now();
  const evaluation: EvaluationRecord = {
    id: newId("eval", createdAt.getTime()),
    organization_id: cmd.organizationId,
    status: "completed",
    repository: cmd.repository,
    ref: cmd.ref,
    base_ref: cmd.baseRef,
    created_at: createdAt.toISOString(),
    completed_at: completedAt.toISOString(),
    passed,
    summary,
    violations: kept.map((finding) => ({ id: newId("viol", completedAt.getTime()), ...finding })),
    failure_reason: null,
    policies: policies.map((p) => p.id),
    deleted_at: null,
  };
  await deps.repo.evaluations.insertOne(evaluation);
  await publishEvaluationResults(deps, evaluation);
  deps.logger.info(
    { organization_id: cmd.organizationId, evaluation_id: evaluation.id, repository: cmd.repository, passed, ...summary },
    "evaluation completed",
  );
  return evaluation;
}
