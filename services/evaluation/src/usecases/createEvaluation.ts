import { errors, newId } from "@verdict/kit";
import { isConnectedRepository, repositoryNotConnected } from "../domain/connectedRepository.js";
import { checkEvaluationInput, contentBytes } from "../domain/evaluation.js";
import type { EvaluationDeps, OrgSettings } from "../deps.js";
import type { EvaluationRecord } from "../repo.js";
import { evaluateNow } from "./evaluateNow.js";
import { queueEvaluation } from "./queueEvaluation.js";
import type { FileToScan } from "../domain/evaluation.js";

export interface CreateEvaluationCommand {
  organizationId: string;
  repository: string;
  ref: string;
  baseRef: string;
  files: FileToScan[];
  /** Policy ids to run; empty runs every enabled policy. */
  policies: string[];
  /** Non-empty: the findings are bypassed with this reason (recorded as suppressions). */
  bypassReason?: string;
  /** Aborted when the client is gone: a synchronous scan stops. */
  signal?: AbortSignal;
  /** The caller's key: the same key again answers the evaluation the first request made. */
  requestId?: string;
}

const EMPTY_SUMMARY = { total_files: 0, total_violations: 0, errors: 0, warnings: 0, suppressed: 0, skipped_files: 0 };

/** Small changes are checked inside the request; large ones are queued for a worker. */
export function isLarge(deps: EvaluationDeps, { files, bytes }: { files: number; bytes: number }): boolean {
  return files >= deps.limits.asyncMinFiles || bytes >= deps.limits.asyncMinBytes;
}

export async function createEvaluation(deps: EvaluationDeps, cmd: CreateEvaluationCommand): Promise<EvaluationRecord> {
  const problems = checkEvaluationInput({ repository: cmd.repository, files: cmd.files, policies: cmd.policies });
  if (problems.length) throw errors.validation(problems);
  if (cmd.requestId) {
    const made = await deps.repo.findByRequestId(cmd.organizationId, cmd.requestId);
    if (made) return made;
  }
  const settings = await deps.orgSettings.get(cmd.organizationId);
  await requireConnected(deps, settings, cmd);
  const createdAt = deps.clock.now();
  const pending: EvaluationRecord = {
    id: newId("eval", createdAt.getTime()),
    organization_id: cmd.organizationId,
    status: "pending",
    repository: cmd.repository,
    ref: cmd.ref,
    base_ref: cmd.baseRef,
    created_at: createdAt.toISOString(),
    created_day: createdAt.toISOString().slice(0, 10),
    completed_at: null,
    passed: null,
    summary: { ...EMPTY_SUMMARY, total_files: cmd.files.length },
    violations: [],
    failure_reason: null,
    policies: [],
    requested_policies: cmd.policies,
    suppressions: [],
    ...(cmd.bypassReason ? { bypass_reason: cmd.bypassReason } : {}),
    ...(cmd.requestId ? { request_id: cmd.requestId } : {}),
    deleted_at: null,
  };
  if (isLarge(deps, { files: cmd.files.length, bytes: contentBytes(cmd.files) }))
    return queueEvaluation(deps, { pending, files: cmd.files });
  return evaluateNow(deps, { pending, files: cmd.files, signal: cmd.signal, settings });
}

/** Refuses a repository not connected through a provider, when the organization requires one. */
async function requireConnected(deps: EvaluationDeps, settings: OrgSettings, cmd: CreateEvaluationCommand) {
  if (!settings.requireConnectedRepository) return;
  const { repositories } = await deps.policy.listRepositories({ organization_id: cmd.organizationId });
  if (!isConnectedRepository(repositories, cmd.repository)) throw repositoryNotConnected(cmd.repository);
}
