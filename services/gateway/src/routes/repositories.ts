import { route } from "../http/route.js";
import { repositoryJson } from "../http/mappers.js";
import { ConnectRepositorySchema, IdParam, RepositoryListSchema, RepositorySchema } from "../http/schemas.js";
import { noContent } from "./common.js";
import { integrationsClient } from "./integrations.js";

/** Providers whose repositories are read through the organization's connection (the integrations service). */
const CONNECTED_PROVIDERS = new Set(["gitea"]);

export const repositoryRoutes = [
  route({
    method: "get",
    path: "/v1/repositories",
    operationId: "listRepositories",
    summary: "List connected repositories",
    tag: "Repositories",
    access: { kind: "scope", scope: "read:org" },
    rateClass: "reads",
    responses: { 200: { description: "Repositories", schema: RepositoryListSchema } },
    handler: async ({ principal, clients }) => {
      const res = await clients.policy.listRepositories({ organization_id: principal!.organizationId });
      return { status: 200, body: { repositories: res.repositories.map(repositoryJson) } };
    },
  }),
  route({
    method: "post",
    path: "/v1/repositories",
    operationId: "connectRepository",
    summary: "Connect a repository",
    tag: "Repositories",
    access: { kind: "scope", scope: "write:org" },
    rateClass: "writes",
    body: ConnectRepositorySchema,
    responses: { 201: { description: "The connected repository", schema: RepositorySchema } },
    errors: [409, 422],
    errorNotes: {
      422: "A provider with a connection (gitea): the organization has none (PROVIDER_NOT_CONNECTED), or the repository does not exist or cannot be read through it (PROVIDER_NOT_FOUND, PROVIDER_FORBIDDEN, PROVIDER_UNAUTHORIZED)",
    },
    handler: async ({ body, principal, clients }) => {
      const organizationId = principal!.organizationId;
      // A provider Verdict reads through a connection answers for the repository first: it must
      // exist and be readable, and its own id and default branch are what is stored.
      const resolved = CONNECTED_PROVIDERS.has(body.provider)
        ? await integrationsClient(clients).resolveRepository({
            organization_id: organizationId,
            provider: body.provider,
            name: body.name,
          })
        : undefined;
      const res = await clients.policy.connectRepository({
        organization_id: organizationId,
        provider: body.provider,
        name: body.name,
        default_branch: resolved?.default_branch ?? body.default_branch,
        provider_repo_id: resolved?.provider_repo_id,
        connection_id: resolved?.connection_id,
      });
      return { status: 201, body: repositoryJson(res.repository!) };
    },
  }),
  route({
    method: "delete",
    path: "/v1/repositories/:repository_id",
    operationId: "disconnectRepository",
    summary: "Disconnect a repository",
    tag: "Repositories",
    access: { kind: "scope", scope: "write:org" },
    rateClass: "writes",
    params: IdParam("repository_id", "repo"),
    responses: noContent,
    handler: async ({ params, principal, clients }) => {
      await clients.policy.disconnectRepository({
        organization_id: principal!.organizationId,
        repository_id: params.repository_id,
      });
      return { status: 204 };
    },
  }),
];
