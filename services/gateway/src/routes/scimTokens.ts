import { jsonFields } from "@verdict/kit";
import type { identityV1 } from "@verdict/proto";
import { actorOf } from "../http/auth.js";
import { route } from "../http/route.js";
import { IdParam } from "../http/schemas.js";
import { CreatedScimTokenSchema, CreateScimTokenSchema, ScimTokenListSchema } from "../http/scimSchemas.js";
import { noContent } from "./common.js";

export function scimTokenJson(t: identityV1.ScimToken) {
  return jsonFields(t, ["id", "name", "prefix", "created_at", "expires_at", "last_used_at"]);
}

const PLAN_NOTE = "The organization's plan does not include SCIM (Business and Enterprise do): AUTH_ORG_ACCESS_DENIED";

export const scimTokenRoutes = [
  route({
    method: "get",
    path: "/v1/scim-tokens",
    operationId: "listScimTokens",
    summary: "List the organization's SCIM tokens (values are never shown again)",
    tag: "SCIM",
    access: { kind: "scope", scope: "admin" },
    rateClass: "reads",
    errorNotes: { 403: PLAN_NOTE },
    responses: { 200: { description: "SCIM tokens", schema: ScimTokenListSchema } },
    handler: async ({ principal, clients }) => {
      const res = await clients.identity.listScimTokens({ organization_id: principal!.organizationId });
      return { status: 200, body: { scim_tokens: res.scim_tokens.map(scimTokenJson) } };
    },
  }),
  route({
    method: "post",
    path: "/v1/scim-tokens",
    operationId: "createScimToken",
    summary: "Create a SCIM token for {api_root}/scim/v2; its value is in `token`, shown once",
    tag: "SCIM",
    access: { kind: "scope", scope: "admin" },
    rateClass: "writes",
    body: CreateScimTokenSchema,
    errorNotes: { 403: PLAN_NOTE },
    responses: { 201: { description: "The token, with its value", schema: CreatedScimTokenSchema } },
    handler: async ({ body, principal, clients, clientIp }) => {
      const res = await clients.identity.createScimToken({
        organization_id: principal!.organizationId,
        name: body.name,
        expiration: body.expiration,
        actor: actorOf(principal!, clientIp),
      });
      return { status: 201, body: { ...scimTokenJson(res.scim_token!), token: res.token } };
    },
  }),
  route({
    method: "delete",
    path: "/v1/scim-tokens/:token_id",
    operationId: "deleteScimToken",
    summary: "Delete a SCIM token (the identity provider can provision no one with it from then on)",
    tag: "SCIM",
    access: { kind: "scope", scope: "admin" },
    rateClass: "writes",
    params: IdParam("token_id", "sct"),
    responses: noContent,
    handler: async ({ params, principal, clients, clientIp }) => {
      await clients.identity.deleteScimToken({
        organization_id: principal!.organizationId,
        token_id: params.token_id,
        actor: actorOf(principal!, clientIp),
      });
      return { status: 204 };
    },
  }),
];
