import { route } from "../http/route.js";
import { repositoryJson } from "../http/mappers.js";
import { ConnectRepositorySchema, IdParam, RepositoryListSchema, RepositorySchema } from "../http/schemas.js";
import { noContent } from "./common.js";

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
    errors: [409],
    summary: "Connect a repository",
    tag: "Repositories",
    access: { kind: "scope", scope: "write:org" },
    rateClass: "writes",
    body: ConnectRepositorySchema,
    responses: { 201: { description: "The connected repository", schema: RepositorySchema } },
    handler: async ({ body, principal, clients }) => {
      const res = await clients.policy.connectRepository({
        organization_id: principal!.organizationId,
        provider: body.provider,
        name: body.name,
        default_branch: body.default_branch,
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
