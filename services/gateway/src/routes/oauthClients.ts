import type { identityV1 } from "@verdict/proto";
import { actorOf } from "../http/auth.js";
import { route } from "../http/route.js";
import { IdParam, type SCOPE } from "../http/schemas.js";
import { CreatedOAuthClientSchema, CreateOAuthClientSchema, OAuthClientListSchema } from "../http/oauthSchemas.js";
import { noContent } from "./common.js";
import type { z } from "zod";

export function oauthClientJson(c: identityV1.OAuthClient) {
  return {
    client_id: c.id,
    name: c.name,
    redirect_uris: c.redirect_uris,
    scopes: c.scopes as z.infer<typeof SCOPE>[],
    public: c.public,
    created_at: c.created_at,
  };
}

export const oauthClientRoutes = [
  route({
    method: "get",
    path: "/v1/oauth-clients",
    operationId: "listOAuthClients",
    summary: "List the organization's OAuth clients (secrets are never shown again)",
    tag: "OAuth clients",
    access: { kind: "scope", scope: "admin" },
    rateClass: "reads",
    responses: { 200: { description: "OAuth clients", schema: OAuthClientListSchema } },
    handler: async ({ principal, clients }) => {
      const res = await clients.identity.listOAuthClients({ organization_id: principal!.organizationId });
      return { status: 200, body: { oauth_clients: res.oauth_clients.map(oauthClientJson) } };
    },
  }),
  route({
    method: "post",
    path: "/v1/oauth-clients",
    operationId: "createOAuthClient",
    summary: "Register an OAuth client; a confidential client's secret is in `client_secret`, shown once",
    tag: "OAuth clients",
    access: { kind: "scope", scope: "admin" },
    rateClass: "writes",
    body: CreateOAuthClientSchema,
    errors: [422],
    errorNotes: { 422: "A redirect URI that is not exact https (or http on loopback), named as `redirect_uris[i]`" },
    responses: { 201: { description: "The client, with its secret", schema: CreatedOAuthClientSchema } },
    handler: async ({ body, principal, clients, clientIp }) => {
      const res = await clients.identity.createOAuthClient({
        organization_id: principal!.organizationId,
        name: body.name,
        redirect_uris: body.redirect_uris,
        scopes: body.scopes,
        public: body.public,
        actor: actorOf(principal!, clientIp),
      });
      return { status: 201, body: { ...oauthClientJson(res.oauth_client!), client_secret: res.client_secret ?? null } };
    },
  }),
  route({
    method: "delete",
    path: "/v1/oauth-clients/:client_id",
    operationId: "deleteOAuthClient",
    errors: [410],
    summary: "Delete an OAuth client (it can sign no one in from then on)",
    tag: "OAuth clients",
    access: { kind: "scope", scope: "admin" },
    rateClass: "writes",
    params: IdParam("client_id", "oac"),
    responses: noContent,
    handler: async ({ params, principal, clients, clientIp }) => {
      await clients.identity.deleteOAuthClient({
        organization_id: principal!.organizationId,
        client_id: params.client_id,
        actor: actorOf(principal!, clientIp),
      });
      return { status: 204 };
    },
  }),
];
