// The organization and API key routes whose REST shape differs from the proto, written by hand
// (docs/contracts.md); reading the organization and revoking a key are generated from
// identity.proto (gen/identity.rest.ts), and the Organization schema and mapper used here are those.
// - An update takes the settings nested under `settings`, and null for "kept forever", where the
//   request message is flat and uses 0.
// - An API key's `status` (active, expired, revoked) is worked out when it is answered, and its IP
//   allowlist is one comma-separated string in JSON (the interface specification's) but a list
//   on the wire; a create fills the creating key or member as the bound the new key must lie in.
// - The instance operator's routes take the organization from the path, not the credential, and
//   answer its rate limits too.
import { errors } from "@verdict/kit";
import { actingUserId, actorOf, auditContext } from "../http/auth.js";
import { route } from "../http/route.js";
import { apiKeyJson, operatorOrganizationJson } from "../http/mappers.js";
import { OrganizationSchema, organizationJson } from "../gen/identity.rest.js";
import {
  ApiKeyListSchema,
  CreateApiKeySchema,
  CreateOrganizationSchema,
  CreatedApiKeySchema,
  CreatedOrganizationSchema,
  IdParam,
  OperatorOrganizationSchema,
  UpdateOrganizationLimitsSchema,
  UpdateOrganizationSchema,
} from "../http/schemas.js";

export const organizationRoutes = [
  route({
    method: "patch",
    path: "/v1/organization",
    operationId: "updateOrganization",
    summary: "Update the organization's name and settings",
    tag: "Organization",
    access: { kind: "scope", scope: "write:org" },
    rateClass: "writes",
    body: UpdateOrganizationSchema,
    responses: { 200: { description: "The updated organization", schema: OrganizationSchema } },
    handler: async ({ body, principal, requestId, clientIp, clients }) => {
      const res = await clients.identity.updateOrganization({
        organization_id: principal!.organizationId,
        name: body.name,
        default_severity: body.settings?.default_severity,
        require_evaluation_pass: body.settings?.require_evaluation_pass,
        allow_inline_suppression: body.settings?.allow_inline_suppression,
        require_mfa: body.settings?.require_mfa,
        system_description: body.settings?.system_description,
        report_scope: body.settings?.report_scope,
        require_connected_repository: body.settings?.require_connected_repository,
        live_verification: body.settings?.live_verification && {
          enabled: body.settings.live_verification.enabled,
          providers: body.settings.live_verification.providers ?? [],
        },
        // null (kept forever) is 0 on the wire.
        audit_retention_days:
          body.settings?.audit_retention_days === undefined ? undefined : (body.settings.audit_retention_days ?? 0),
        audit: auditContext(principal!, requestId, clientIp),
      });
      return { status: 200, body: organizationJson(res.organization!) };
    },
  }),
  route({
    method: "get",
    path: "/v1/api-keys",
    operationId: "listApiKeys",
    summary: "List the organization's API keys (values are never shown again)",
    tag: "API keys",
    access: { kind: "scope", scope: "admin" },
    rateClass: "reads",
    responses: { 200: { description: "API keys, active, expired and revoked", schema: ApiKeyListSchema } },
    handler: async ({ principal, clients }) => {
      const res = await clients.identity.listApiKeys({ organization_id: principal!.organizationId });
      return { status: 200, body: { api_keys: res.api_keys.map((k) => apiKeyJson(k)) } };
    },
  }),
  route({
    method: "post",
    path: "/v1/api-keys",
    operationId: "createApiKey",
    errors: [422],
    summary: "Create an API key; its value is in `key` and shown once",
    tag: "API keys",
    access: { kind: "scope", scope: "admin" },
    rateClass: "writes",
    body: CreateApiKeySchema,
    responses: { 201: { description: "The created key, with its value", schema: CreatedApiKeySchema } },
    handler: async ({ body, principal, clients, clientIp }) => {
      const res = await clients.identity.createApiKey({
        organization_id: principal!.organizationId,
        name: body.name,
        scopes: body.scopes,
        expiration: body.expiration,
        environment: body.environment ?? "",
        ip_allowlist: body.ip_allowlist ? body.ip_allowlist.split(",") : [],
        // A signed-in member creates keys within their role's scopes; a key within its own.
        creator_key_id: principal!.keyId,
        creator_user_id: actingUserId(principal!),
        actor: actorOf(principal!, clientIp),
      });
      return { status: 201, body: { ...apiKeyJson(res.api_key!), key: res.key } };
    },
  }),
  route({
    method: "post",
    path: "/v1/organizations",
    operationId: "createOrganization",
    summary: "Create an organization and its first admin key (instance operators only)",
    tag: "Instance administration",
    access: { kind: "operator" },
    rateClass: "writes",
    body: CreateOrganizationSchema,
    responses: {
      201: { description: "The organization and its first admin key, shown once", schema: CreatedOrganizationSchema },
    },
    handler: async ({ body, clients, principal, requestId, clientIp }) => {
      const res = await clients.identity.createOrganization({
        name: body.name,
        plan: body.plan,
        rate_limits: body.rate_limits ?? {},
        audit: auditContext(principal!, requestId, clientIp),
      });
      return {
        status: 201,
        body: {
          organization: operatorOrganizationJson(res.organization!),
          api_key: { ...apiKeyJson(res.api_key!), key: res.key },
        },
      };
    },
  }),
  route({
    method: "patch",
    path: "/v1/organizations/:organization_id",
    operationId: "updateOrganizationLimits",
    summary: "Set an organization's rate limits (instance operators only)",
    tag: "Instance administration",
    access: { kind: "operator" },
    rateClass: "writes",
    params: IdParam("organization_id", "org"),
    body: UpdateOrganizationLimitsSchema,
    responses: { 200: { description: "The organization with its limits", schema: OperatorOrganizationSchema } },
    handler: async ({ params, body, clients, principal, requestId, clientIp }) => {
      if (!params.organization_id.startsWith("org_")) throw errors.notFound("organization", params.organization_id);
      const res = await clients.identity.updateOrganizationLimits({
        organization_id: params.organization_id,
        rate_limits: body.rate_limits,
        audit: auditContext(principal!, requestId, clientIp),
      });
      return { status: 200, body: operatorOrganizationJson(res.organization!) };
    },
  }),
];
