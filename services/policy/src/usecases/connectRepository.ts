// Connects a repository to an organization (once per provider and name).
import { errors, fieldChanges, newId } from "@verdict/kit";
import type { AuditContextInput } from "@verdict/outbox";
import { DuplicateKeyError } from "@verdict/store";
import { checkConnectRepository, DEFAULT_BRANCH, nestedNameProblem } from "../domain/repository.js";
import type { PolicyDeps } from "../deps.js";
import type { RepositoryRecord } from "../repo.js";
import { policyAuditEvent } from "./events.js";

/** What the audit log shows of a repository: the fields a user chose or a provider answered. */
export const AUDITED_REPOSITORY_FIELDS = ["provider", "name", "default_branch", "connection_id"] as const;

export interface ConnectRepositoryCommand {
  organizationId: string;
  provider: string;
  name: string;
  defaultBranch?: string;
  /** What the provider said through the organization's connection (IntegrationsService.ResolveRepository). */
  providerRepoId?: string | undefined;
  connectionId?: string | undefined;
  /** Who asks, for the audit event written with the change. */
  audit?: AuditContextInput | undefined;
}

export async function connectRepository(deps: PolicyDeps, cmd: ConnectRepositoryCommand): Promise<RepositoryRecord> {
  const problems = checkConnectRepository({
    provider: cmd.provider,
    name: cmd.name,
    default_branch: cmd.defaultBranch,
  });
  if (problems.length) throw errors.validation(problems);
  const nested = nestedNameProblem({ provider: cmd.provider, name: cmd.name });
  if (nested) throw errors.unprocessable([nested], nested.message);
  const now = deps.clock.now();
  const record: RepositoryRecord = {
    id: newId("repo", now.getTime()),
    organization_id: cmd.organizationId,
    name: cmd.name,
    provider: cmd.provider,
    default_branch: cmd.defaultBranch || DEFAULT_BRANCH,
    connected_at: now.toISOString(),
    last_evaluation: null,
    ...(cmd.providerRepoId ? { provider_repo_id: cmd.providerRepoId } : {}),
    ...(cmd.connectionId ? { connection_id: cmd.connectionId } : {}),
  };
  try {
    // The unique (organization_id, provider, name) index decides duplicates, race-free.
    const audit = policyAuditEvent(deps, {
      organizationId: cmd.organizationId,
      type: "repository.connected",
      context: cmd.audit,
      targetType: "repository",
      targetId: record.id,
      changes: fieldChanges(null, { ...record }, AUDITED_REPOSITORY_FIELDS),
    });
    await deps.repo.insertRepository(record, [audit]);
  } catch (err) {
    if (err instanceof DuplicateKeyError) throw errors.alreadyExists("repository", cmd.name);
    throw err;
  }
  deps.logger.info(
    { organization_id: cmd.organizationId, repository_id: record.id, name: record.name },
    "repository connected",
  );
  return record;
}
