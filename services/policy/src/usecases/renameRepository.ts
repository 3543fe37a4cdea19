// A connected repository renamed or transferred in its provider: the integrations service found it
// by the provider's stable id under another name, and its stored name follows (with an audit
// event, whose actor is the provider's event: no member asked).
import { errors, fieldChanges } from "@verdict/kit";
import { DuplicateKeyError } from "@verdict/store";
import type { PolicyDeps } from "../deps.js";
import { checkConnectRepository, nestedNameProblem } from "../domain/repository.js";
import type { RepositoryRecord } from "../repo.js";
import { AUDITED_REPOSITORY_FIELDS } from "./connectRepository.js";
import { policyAuditEvent } from "./events.js";

export interface RenameRepositoryCommand {
  organizationId: string;
  repositoryId: string;
  name: string;
}

export async function renameRepository(deps: PolicyDeps, cmd: RenameRepositoryCommand): Promise<RepositoryRecord> {
  const { organizationId, repositoryId, name } = cmd;
  const before = await deps.repo.findRepository(organizationId, repositoryId);
  if (!before) throw errors.notFound("repository", repositoryId);
  if (before.name === name) return before;
  const nested = nestedNameProblem({ provider: before.provider, name });
  const problems = [
    ...checkConnectRepository({ provider: before.provider, name }).filter((p) => p.field === "name"),
    ...(nested ? [nested] : []),
  ];
  if (problems.length) throw errors.unprocessable(problems);
  const after = { ...before, name };
  const audit = policyAuditEvent(deps, {
    organizationId,
    type: "repository.renamed",
    context: undefined,
    targetType: "repository",
    targetId: repositoryId,
    changes: fieldChanges({ ...before }, { ...after }, AUDITED_REPOSITORY_FIELDS),
  });
  let renamed: boolean;
  try {
    renamed = await deps.repo.renameRepository(organizationId, repositoryId, name, [audit]);
  } catch (err) {
    // The organization already has a repository of that provider by the new name.
    if (err instanceof DuplicateKeyError) throw errors.alreadyExists("repository", name);
    throw err;
  }
  if (!renamed) throw errors.notFound("repository", repositoryId);
  deps.logger.info(
    { organization_id: organizationId, repository_id: repositoryId, from: before.name, to: name },
    "repository renamed in its provider",
  );
  return after;
}
