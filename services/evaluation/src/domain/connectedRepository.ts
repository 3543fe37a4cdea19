// An organization may require that evaluations name a connected repository (its setting
// `require_connected_repository`). What counts: a repository the organization stored through a
// provider connection (POST /v1/repositories answered by the provider: the record carries the
// connection it is read through). A repository stored by name alone, or another organization's,
// does not count.
import { AppError } from "@verdict/kit";

export interface StoredRepository {
  name: string;
  /** The integrations connection the repository is read through; empty when stored by name alone. */
  connection_id?: string | undefined;
}

/** Hosting providers treat owner and repository names case-insensitively; so does this. */
export function isConnectedRepository(repositories: readonly StoredRepository[], name: string): boolean {
  const wanted = name.toLowerCase();
  return repositories.some((r) => !!r.connection_id && r.name.toLowerCase() === wanted);
}

/** 422 naming the field, with how to connect the repository. */
export function repositoryNotConnected(name: string): AppError {
  return new AppError(
    "unprocessable",
    "REPOSITORY_NOT_CONNECTED",
    `The organization requires evaluations of connected repositories and '${name}' is not one: connect it ` +
      "through a provider connection (POST /v1/integrations/connections, then POST /v1/repositories with its " +
      "provider and name), or turn off settings.require_connected_repository (PATCH /v1/organization)",
    { field: "repository" },
  );
}
