// Builds the OpenAPI 3.1 document from the route table and the zod schemas the gateway
// validates with (zod emits JSON Schema 2020-12, which is OpenAPI 3.1's dialect).
import { z } from "zod";
import type { Route } from "./route.js";
import { authPagesPaths } from "./openapiAuth.js";
import { integrationEventsPaths } from "../routes/integrations.js";
import { gitHubAppFormPaths } from "../routes/githubApp.js";
import { ErrorSchema } from "./schemas.js";
import { webhooksSection } from "./webhookSchemas.js";
import { VERSION } from "../routes/common.js";

type Json = Record<string, unknown>;

const REF = (id: string) => `#/components/schemas/${id}`;

function strip(schema: Json): Json {
  const { $schema: _s, $id: _i, ...rest } = schema;
  return rest;
}

function idOf(schema: z.ZodType): string | undefined {
  return (z.globalRegistry.get(schema) as { id?: string } | undefined)?.id;
}

function schemaRef(schema: z.ZodType, io: "input" | "output"): Json {
  const id = idOf(schema);
  if (id) return { $ref: REF(id) };
  return strip(z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Json);
}

function parameters(schema: z.ZodType | undefined, where: "path" | "query"): Json[] {
  if (!schema) return [];
  const js = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as {
    properties?: Record<string, Json>;
    required?: string[];
  };
  return Object.entries(js.properties ?? {}).map(([name, s]) => {
    const { description, ...rest } = s;
    return {
      name,
      in: where,
      required: where === "path" || (js.required ?? []).includes(name),
      schema: rest,
      ...(description ? { description } : {}),
    };
  });
}

const ERROR_TEXT: Record<number, string> = {
  400: "Invalid input (malformed JSON, schema violations): VALIDATION_FAILED with details.errors",
  401: "AUTH_MISSING_KEY, AUTH_INVALID_KEY, AUTH_EXPIRED_KEY or AUTH_REVOKED_KEY",
  403: "AUTH_INSUFFICIENT_SCOPE, AUTH_IP_NOT_ALLOWED or AUTH_ORG_ACCESS_DENIED",
  404: "RESOURCE_NOT_FOUND (also for other organizations' resources)",
  409: "RESOURCE_ALREADY_EXISTS",
  410: "RESOURCE_DELETED",
  412: "VERSION_MISMATCH: If-Match (or the body's version) names a version the resource has moved past; read it again",
  413: "The body is larger than this route takes (refused unread; its class's limit: evaluations VERDICT_MAX_BODY_BYTES, /auth 64 KiB, others 2 MiB): VALIDATION_FAILED, field body, MAX_SIZE_EXCEEDED with max",
  422: "Matches the schema but breaks a rule it cannot express: VALIDATION_FAILED with details.errors",
  429: "RATE_LIMIT_EXCEEDED; see Retry-After",
  500: "INTERNAL_ERROR",
  503: "SERVICE_UNAVAILABLE or DEPENDENCY_FAILURE; retry with backoff",
};

const RATE_HEADERS = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-RateLimit-Window"];

function headerRefs(extra: string[] = []): Json {
  const out: Json = {};
  for (const h of ["X-Request-Id", "Cache-Control", ...RATE_HEADERS, ...extra])
    out[h] = { $ref: `#/components/headers/${h}` };
  return out;
}

/**
 * The components a request body holds, directly or through another component: they are documented
 * in their "input" form (a field with a default is optional), every other one as it is answered.
 */
function requestComponents(routes: Route[], input: Record<string, Json>): Set<string> {
  const ids = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== "object") return;
    const ref = (node as Json).$ref;
    const id = typeof ref === "string" ? /^#\/(?:components\/schemas|\$defs)\/(.+)$/.exec(ref)?.[1] : undefined;
    if (id !== undefined && !ids.has(id)) {
      ids.add(id);
      walk(input[id]);
    }
    Object.values(node).forEach(walk);
  };
  for (const r of routes) if (r.body) walk(schemaRef(r.body, "input"));
  return ids;
}

export function buildOpenApi(routes: Route[]): Json {
  const output = z.toJSONSchema(z.globalRegistry, { io: "output", unrepresentable: "any", uri: REF }) as {
    schemas: Record<string, Json>;
  };
  const input = z.toJSONSchema(z.globalRegistry, { io: "input", unrepresentable: "any", uri: REF }) as {
    schemas: Record<string, Json>;
  };
  const requestIds = requestComponents(routes, input.schemas);
  const schemas: Record<string, Json> = {};
  for (const [id, s] of Object.entries(output.schemas))
    schemas[id] = strip(requestIds.has(id) ? input.schemas[id]! : s);

  const paths: Record<string, Record<string, Json>> = {};
  for (const r of routes) {
    const path = r.path.replace(/:([A-Za-z_]+)/g, "{$1}");
    const responses: Json = {};
    for (const [status, resp] of Object.entries(r.responses)) {
      responses[status] = {
        description: resp.description,
        headers: headerRefs(resp.session ? ["Set-Cookie"] : []),
        ...(resp.schema ? { content: { "application/json": { schema: schemaRef(resp.schema, "output") } } } : {}),
        ...(resp.contentTypes
          ? {
              content: Object.fromEntries(
                resp.contentTypes.map((t) => [t, { schema: { type: "string", format: "binary" } }]),
              ),
            }
          : {}),
      };
    }
    const errorStatuses = new Set<number>(r.unmetered ? [500] : [429, 500]);
    if (r.body || r.query || r.params) errorStatuses.add(400);
    if (r.body) errorStatuses.add(413);
    if (r.access.kind !== "public") for (const s of [401, 403, 503]) errorStatuses.add(s);
    if (r.params) errorStatuses.add(404);
    if (r.query) errorStatuses.add(422);
    for (const s of r.errors ?? []) errorStatuses.add(s);
    if (r.ifMatch) errorStatuses.add(412);
    for (const s of [...errorStatuses].sort()) {
      responses[String(s)] = {
        description: r.errorNotes?.[s] ? `${ERROR_TEXT[s]}. ${r.errorNotes[s]}` : ERROR_TEXT[s],
        headers: headerRefs(s === 429 ? ["Retry-After"] : []),
        content: { "application/json": { schema: { $ref: REF("Error") } } },
      };
    }
    const op: Json = {
      operationId: r.operationId,
      summary: r.summary,
      tags: [r.tag],
      parameters: [
        ...parameters(r.params, "path"),
        ...parameters(r.query, "query"),
        ...(r.ifMatch
          ? [
              {
                name: "If-Match",
                in: "header",
                required: false,
                description: r.ifMatch,
                schema: { type: "string", pattern: '^(\\*|(W/)?"?[0-9]+"?)$', examples: ['W/"1"'] },
              },
            ]
          : []),
      ],
      responses,
      security:
        r.access.kind === "public"
          ? []
          : [
              { bearerAuth: [] },
              { sessionCookie: [] },
              { oauth2: r.access.kind === "scope" ? [r.access.scope] : [] },
              { legacyApiKeyQuery: [] },
            ],
      ...(r.access.kind === "scope" ? { "x-required-scope": r.access.scope } : {}),
      ...(r.access.kind === "operator" ? { "x-required-scope": "instance-operator" } : {}),
      ...(r.rateClass ? { "x-rate-limit-class": r.rateClass } : {}),
      ...(r.unmetered ? { "x-rate-limit-class": "unmetered" } : {}),
    };
    if (r.body)
      op.requestBody = { required: true, content: { "application/json": { schema: schemaRef(r.body, "input") } } };
    (paths[path] ??= {})[r.method] = op;
  }
  // The OAuth server, its pages and SSO's browser legs: OAuth's, HTML's and SAML's formats.
  for (const [path, item] of Object.entries(authPagesPaths())) paths[path] = { ...paths[path], ...item };
  // Providers' webhook deliveries: raw bytes in, verified by the integrations service.
  for (const [path, item] of Object.entries({ ...integrationEventsPaths(), ...gitHubAppFormPaths() }))
    paths[path] = { ...paths[path], ...item };

  const headerSchema = (description: string, type = "integer") => ({ description, schema: { type } });
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: {
      title: "Verdict API",
      version: VERSION,
      description:
        "Code policy evaluation. 400 = the request does not match this document's schemas; 422 = it matches them but breaks a rule they cannot express (a pattern RE2 cannot compile, an unknown policy id or setting, a CIDR range out of bounds, a cursor the API did not issue, deleting a built-in policy). A client that sends its request slower than the server's request timeout gets 408 without a body and the connection is closed. Prometheus metrics are not part of this API: they are served on a port of their own (VERDICT_METRICS_PORT). SCIM v2 provisioning is served at /scim/v2 and follows RFC 7643 and RFC 7644 (application/scim+json, SCIM error bodies, bearer tokens from /v1/scim-tokens); it is not described by this document: SCIM describes itself (GET /scim/v2/Schemas, /ResourceTypes and /ServiceProviderConfig, RFC 7643 §5–7), and its resources, filters and PATCH operations are RFC 7644's, which identity providers implement from the RFC. The OAuth 2.0 authorization server (/auth/oauth/*, /.well-known/oauth-authorization-server), its sign-in and consent pages and the browser legs of SSO (/auth/oidc/callback, /auth/saml/metadata, /auth/saml/acs) are described here with the media types they really use (OAuth error bodies, HTML pages, SAML XML, form posts), tagged 'OAuth server and SSO pages'. Sessions: the POST /auth/login family answers Set-Cookie (__Host-verdict_session on https, verdict_session on http://localhost; HttpOnly, SameSite=Lax); with a session cookie, POST, PUT, PATCH and DELETE need the X-CSRF-Token header (GET /auth/session answers it), else 403 AUTH_CSRF_FAILED.",
    },
    servers: [{ url: "/" }],
    security: [{ bearerAuth: [] }],
    paths,
    // What Verdict sends to registered webhook URLs (OpenAPI 3.1 webhooks).
    webhooks: webhooksSection(),
    components: {
      schemas,
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description:
            "Authorization: Bearer vdt_key_<prod|test>_… (an API key) or vdt_oat_… (an OAuth access token: see oauth2)",
        },
        oauth2: {
          type: "oauth2",
          description:
            "An application acting for a member (Verdict's authorization server, RFC 8414 metadata at /.well-known/oauth-authorization-server): authorization code with PKCE S256 (required for public clients), refresh tokens rotated at every use, revocation at /auth/oauth/revoke (RFC 7009). The token endpoint takes form or JSON bodies. Access tokens (vdt_oat_…, 3600 s) carry the granted scopes within the member's role.",
          flows: {
            authorizationCode: {
              authorizationUrl: "/auth/oauth/authorize",
              tokenUrl: "/auth/oauth/token",
              refreshUrl: "/auth/oauth/token",
              scopes: {
                "read:evaluations": "Read evaluations",
                "write:evaluations": "Run and delete evaluations",
                "read:policies": "Read policies, compliance reads and report generation",
                "write:policies": "Create, change and delete policies",
                "read:org": "Read the organization, repositories and webhooks",
                "write:org": "Change the organization, repositories and webhooks",
                admin: "Everything, including keys, members and OAuth clients",
              },
            },
          },
        },
        sessionCookie: {
          type: "apiKey",
          in: "cookie",
          name: "__Host-verdict_session",
          description:
            "A signed-in person's session (POST /auth/login): __Host-verdict_session on https, verdict_session on http://localhost. POST, PATCH and DELETE also need the X-CSRF-Token header (GET /auth/session answers it).",
        },
        legacyApiKeyQuery: {
          type: "apiKey",
          in: "query",
          name: "api_key",
          description: "Legacy and discouraged: query strings get logged.",
        },
      },
      headers: {
        "X-Request-Id": { description: "Request id (req_…), also in every error body", schema: { type: "string" } },
        "Cache-Control": {
          description: "Always no-store: answers carry keys, secrets' surroundings, evaluations and reports",
          schema: { type: "string", enum: ["no-store"] },
        },
        "X-RateLimit-Limit": headerSchema("Requests allowed in the window"),
        "X-RateLimit-Remaining": headerSchema("Requests left in the window"),
        "X-RateLimit-Reset": headerSchema("Unix time (seconds) when the window resets"),
        "X-RateLimit-Window": headerSchema("Window length in seconds"),
        "Retry-After": headerSchema("Seconds to wait before retrying"),
        "Set-Cookie": {
          description:
            "The session cookie: __Host-verdict_session=vdt_ses_… (Secure) on https, verdict_session=vdt_ses_… on http://localhost; HttpOnly, SameSite=Lax, Path=/. A sign-out sets it expired",
          schema: { type: "string" },
        },
      },
    },
  };
}

// Referenced so the Error component is registered even if no route names it directly.
void ErrorSchema;
