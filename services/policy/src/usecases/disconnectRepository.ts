// Disconnects a repository from an organization.
import { errors } from "@verdict/kit";
import type { PolicyDeps } from "../deps.js";

export interface DisconnectRepositoryCommand {
  organizationId: string;
  repositoryId: string;
}

export async function disconnectRepository(deps: PolicyDeps, cmd: DisconnectRepositoryCommand): Promise<void> {
  const { organizationId, repositoryId } = cmd;
  const deleted = await deps.repo.deleteRepository(organizationId, repositoryId);
  if (!deleted) throw errors.notFound("repository", repositoryId);
  deps.logger.info({ organization_id: organizationId, repository_id: repositoryId }, "repository disconnected");
}
