// A connected repository renamed or transferred in its provider, found by the provider's stable
// id: its stored name follows (the policy service records repository.renamed). GitHub says so at
// once (the repository event); every provider's next pull request or push carries the new name too.
// A repository transferred to an account the connection does not reach (GitHub: the App is not
// installed there) is disconnected (repository.disconnected, actor system): Verdict can neither
// read it nor post to it any more, and a stale entry would keep requiring evaluations under a name
// that is gone.
import type { policyV1 } from "@verdict/proto";
import { ProviderError, type InboundEvent } from "../domain/provider.js";
import type { IntegrationsDeps } from "../deps.js";
import type { ConnectionRecord } from "../repo.js";

type RepositoryEvent = Extract<InboundEvent, { kind: "repository" }>;

/** The organization's repository connected through this connection with the provider's id, if any. */
export async function connectedRepository(
  deps: IntegrationsDeps,
  connection: ConnectionRecord,
  providerRepoId: string,
): Promise<policyV1.Repository | undefined> {
  const { repositories } = await deps.policy.listRepositories({ organization_id: connection.organization_id });
  return repositories.find((r) => r.connection_id === connection.id && r.provider_repo_id === providerRepoId);
}

/**
 * The repository under its name in the provider now (owner/name). Should that fail (a name
 * Verdict cannot store), it goes on under the old name.
 */
export async function followRename(
  deps: IntegrationsDeps,
  repository: policyV1.Repository,
  organizationId: string,
  name: string,
): Promise<policyV1.Repository> {
  if (name === repository.name) return repository;
  try {
    const renamed = await deps.policy.renameRepository({
      organization_id: organizationId,
      repository_id: repository.id,
      name,
    });
    return renamed.repository ?? repository;
  } catch (err) {
    deps.logger.warn(
      { err, organization_id: organizationId, repository_id: repository.id, name },
      "repository renamed in its provider: name not followed",
    );
    return repository;
  }
}

/**
 * A repository event: renamed follows the name; transferred asks the provider whether the
 * connection reaches the repository at its new owner (without the event's installation: GitHub
 * looks the App's installation on it up) and follows the name, or disconnects it.
 */
export async function followRepository(
  deps: IntegrationsDeps,
  connection: ConnectionRecord,
  event: RepositoryEvent,
): Promise<void> {
  const orgId = connection.organization_id;
  const log = deps.logger.child({ organization_id: orgId, connection_id: connection.id });
  const repository = await connectedRepository(deps, connection, event.providerRepoId);
  if (!repository) {
    log.info({ provider_repo_id: event.providerRepoId }, "event for a repository not connected: ignored");
    return;
  }
  const name = `${event.repo.owner}/${event.repo.name}`;
  if (event.action === "transferred" && !(await reaches(deps, connection, event))) {
    await deps.policy.disconnectRepository({ organization_id: orgId, repository_id: repository.id });
    log.info(
      { repository_id: repository.id, from: repository.name, to: name },
      "repository transferred to an account the connection does not reach: disconnected",
    );
    return;
  }
  await followRename(deps, repository, orgId, name);
}

async function reaches(deps: IntegrationsDeps, connection: ConnectionRecord, event: RepositoryEvent): Promise<boolean> {
  try {
    const found = await deps.clientFor(connection).getRepository(event.repo);
    return found.providerRepoId === event.providerRepoId;
  } catch (err) {
    if (err instanceof ProviderError && (err.code === "not_found" || err.code === "forbidden")) return false;
    throw err;
  }
}
