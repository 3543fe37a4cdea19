// An organization's connected repositories, by name, and how many there are.
import type { PolicyDeps } from "../deps.js";
import type { RepositoryRecord } from "../repo.js";

export interface RepositoriesQuery {
  organizationId: string;
}

export async function listRepositories(deps: PolicyDeps, query: RepositoriesQuery): Promise<RepositoryRecord[]> {
  return deps.repo.listRepositories(query.organizationId);
}

/** How many repositories the organization connected (its plan limits them). */
export async function countRepositories(deps: PolicyDeps, query: RepositoriesQuery): Promise<number> {
  return deps.repo.countRepositories(query.organizationId);
}
