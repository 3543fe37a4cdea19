// Asked when a repository of a provider is connected: it must exist and be readable through the
// organization's connection; what the provider says (its stable id, default branch) is stored.
// null: the organization has no connection to a provider where one is optional (GitHub).
import { AppError } from "@verdict/kit";
import type { IntegrationsDeps } from "../deps.js";
import type { ProviderRepository } from "../domain/provider.js";
import { connectionOptional } from "../domain/connection.js";
import { connectionFor, providerProblem } from "./connections.js";

export interface ResolveRepositoryCommand {
  organizationId: string;
  provider: string;
  /** owner/name */
  name: string;
}

export async function resolveRepository(
  deps: IntegrationsDeps,
  cmd: ResolveRepositoryCommand,
): Promise<{ connectionId: string; repository: ProviderRepository } | null> {
  if (
    connectionOptional(cmd.provider) &&
    !(await deps.repo.listConnections(cmd.organizationId)).some((c) => c.provider === cmd.provider)
  )
    return null;
  const connection = await connectionFor(deps, cmd.organizationId, cmd.provider);
  const slash = cmd.name.lastIndexOf("/");
  if (slash <= 0)
    throw new AppError("validation", "VALIDATION_FAILED", "Request validation failed", {
      errors: [{ field: "name", code: "INVALID_FORMAT", message: "name must have the form <owner>/<repo>" }],
    });
  try {
    const repository = await deps
      .clientFor(connection)
      .getRepository({ owner: cmd.name.slice(0, slash), name: cmd.name.slice(slash + 1) });
    return { connectionId: connection.id, repository };
  } catch (err) {
    throw providerProblem(err, "name");
  }
}
