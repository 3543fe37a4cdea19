// Connects a repository to an organization (once per provider and name).
import { errors, newId } from "@verdict/kit";
import { DuplicateKeyError } from "@verdict/store";
import { checkConnectRepository, DEFAULT_BRANCH } from "../domain/repository.js";
import type { PolicyDeps } from "../deps.js";
import type { RepositoryRecord } from "../repo.js";

export interface ConnectRepositoryCommand {
  organizationId: string;
  provider: string;
  name: string;
  defaultBranch?: string;
  /** What the provider said through the organization's connection (IntegrationsService.ResolveRepository). */
  providerRepoId?: string | undefined;
  connectionId?: string | undefined;
}

export async function connectRepository(deps: PolicyDeps, cmd: ConnectRepositoryCommand): Promise<RepositoryRecord> {
  const problems = checkConnectRepository({
    provider: cmd.provider,
    name: cmd.name,
    default_branch: cmd.defaultBranch,
  });
  if (problems.length) throw errors.validation(problems);
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
    await deps.repo.insertRepository(record);
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
