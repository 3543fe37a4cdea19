// Disconnects a repository from an organization.
import { errors, fieldChanges } from "@verdict/kit";
import type { AuditContextInput } from "@verdict/outbox";
import type { PolicyDeps } from "../deps.js";
import { AUDITED_REPOSITORY_FIELDS } from "./connectRepository.js";
import { policyAuditEvent } from "./events.js";

export interface DisconnectRepositoryCommand {
  organizationId: string;
  repositoryId: string;
  /** Who asks, for the audit event written with the change. */
  audit?: AuditContextInput | undefined;
}

export async function disconnectRepository(deps: PolicyDeps, cmd: DisconnectRepositoryCommand): Promise<void> {
  const { organizationId, repositoryId } = cmd;
  const before = await deps.repo.findRepository(organizationId, repositoryId);
  if (!before) throw errors.notFound("repository", repositoryId);
  const audit = policyAuditEvent(deps, {
    organizationId,
    type: "repository.disconnected",
    context: cmd.audit,
    targetType: "repository",
    targetId: repositoryId,
    changes: fieldChanges({ ...before }, null, AUDITED_REPOSITORY_FIELDS),
  });
  const deleted = await deps.repo.deleteRepository(organizationId, repositoryId, [audit]);
  if (!deleted) throw errors.notFound("repository", repositoryId);
  deps.logger.info({ organization_id: organizationId, repository_id: repositoryId }, "repository disconnected");
}
