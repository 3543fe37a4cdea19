// Connected hosting providers (the integrations service): connections per organization, and the
// providers' inbound webhook deliveries.
//
// Hand-written, in this one file, until scripts/rest-gen.mjs generates request bodies: the
// routes then move to google.api.http rules on proto/verdict/integrations/v1/integrations.proto.
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from "express";
import { z } from "zod";
import { AppError, errors } from "@verdict/kit";
import type { integrationsV1 } from "@verdict/proto";
import type { Clients } from "../clients.js";
import { bodyLimit } from "../http/bodyLimits.js";
import { route } from "../http/route.js";
import { IdParam } from "../http/schemas.js";
import { noContent } from "./common.js";

const ISO = z.string().meta({ format: "date-time" });

/** The integrations service's client, or 503 where it is not deployed (VERDICT_INTEGRATIONS_ADDRESS unset). */
export function integrationsClient(clients: Clients): NonNullable<Clients["integrations"]> {
  if (!clients.integrations)
    throw errors.unavailable("Connected repositories are not deployed here (the integrations service)");
  return clients.integrations;
}

export const ConnectionSchema = z
  .object({
    id: z.string().regex(/^conn_/),
    provider: z.enum(["gitea"]),
    base_url: z.string(),
    status: z.enum(["active", "broken"]),
    last_event_at: ISO.nullable(),
    last_error: z.string().nullable(),
    last_error_at: ISO.nullable(),
    /** Where the provider delivers its webhooks. */
    events_url: z.string(),
    created_at: ISO,
  })
  .meta({ id: "Connection" });

export const CreateConnectionSchema = z
  .object({
    provider: z.enum(["gitea"]),
    base_url: z.string().max(2048),
    token: z.string().min(1).max(512),
    webhook_secret: z.string().min(16).max(256),
  })
  .strict()
  .meta({ id: "CreateConnection" });

const ConnectionListSchema = z.object({ connections: z.array(ConnectionSchema) }).meta({ id: "ConnectionList" });

function connectionJson(c: integrationsV1.Connection, apiBaseUrl: string) {
  return {
    id: c.id,
    provider: c.provider,
    base_url: c.base_url,
    status: c.status,
    last_event_at: c.last_event_at ?? null,
    last_error: c.last_error ?? null,
    last_error_at: c.last_error_at ?? null,
    events_url: `${apiBaseUrl.replace(/\/v1\/?$/, "")}${c.events_path}`,
    created_at: c.created_at,
  };
}

export const integrationRoutes = [
  route({
    method: "get",
    path: "/v1/integrations/connections",
    operationId: "listConnections",
    summary: "List the organization's provider connections (tokens and secrets are never shown)",
    tag: "Integrations",
    access: { kind: "scope", scope: "read:org" },
    rateClass: "reads",
    responses: { 200: { description: "Connections", schema: ConnectionListSchema } },
    handler: async ({ principal, clients, apiBaseUrl }) => {
      const res = await integrationsClient(clients).listConnections({ organization_id: principal!.organizationId });
      return { status: 200, body: { connections: res.connections.map((c) => connectionJson(c, apiBaseUrl)) } };
    },
  }),
  route({
    method: "post",
    path: "/v1/integrations/connections",
    operationId: "createConnection",
    summary: "Connect a hosting provider (Gitea or Forgejo): its base URL, an access token and the webhook secret",
    tag: "Integrations",
    access: { kind: "scope", scope: "write:org" },
    rateClass: "writes",
    body: CreateConnectionSchema,
    responses: { 201: { description: "The connection", schema: ConnectionSchema } },
    errors: [422],
    errorNotes: { 422: "The provider refused the token (code PROVIDER_UNAUTHORIZED) or could not be reached" },
    handler: async ({ body, principal, clients, apiBaseUrl }) => {
      const res = await integrationsClient(clients).createConnection({
        organization_id: principal!.organizationId,
        provider: body.provider,
        base_url: body.base_url,
        token: body.token,
        webhook_secret: body.webhook_secret,
      });
      return { status: 201, body: connectionJson(res.connection!, apiBaseUrl) };
    },
  }),
  route({
    method: "delete",
    path: "/v1/integrations/connections/:connection_id",
    operationId: "deleteConnection",
    summary: "Delete a provider connection",
    tag: "Integrations",
    access: { kind: "scope", scope: "write:org" },
    rateClass: "writes",
    params: IdParam("connection_id", "conn"),
    responses: noContent,
    handler: async ({ params, principal, clients }) => {
      await integrationsClient(clients).deleteConnection({
        organization_id: principal!.organizationId,
        connection_id: params.connection_id,
      });
      return { status: 204 };
    },
  }),
];

/** A provider's webhook deliveries: small JSON documents (Gitea sends a few KiB). */
const EVENT_BODY_LIMIT = 1024 * 1024;
const PROVIDERS = new Set(["gitea"]);

/**
 * POST /v1/integrations/{provider}/events?connection={id}: the gateway checks only the size and
 * the route, and passes the raw bytes on; the integrations service checks the signature before
 * anything parses them. Answered 202 at once; the check runs on the bus.
 */
export function mountIntegrationEvents(
  app: Express,
  throttle: RequestHandler,
  opts: { clients: Clients; bodyLimitBytes: number },
): void {
  const raw = express.raw({
    type: () => true,
    limit: Math.min(EVENT_BODY_LIMIT, bodyLimit("api", opts.bodyLimitBytes)),
  });
  app.post("/v1/integrations/:provider/events", throttle, (req: Request, res: Response, next: NextFunction) => {
    const provider = String(req.params.provider);
    if (!PROVIDERS.has(provider)) return next(errors.notFound("provider", provider));
    let client: NonNullable<Clients["integrations"]>;
    try {
      client = integrationsClient(opts.clients);
    } catch (err) {
      return next(err);
    }
    raw(req, res, (err?: unknown) => {
      if (err) {
        const e = err as { type?: string };
        if (e.type === "entity.too.large")
          return next(
            new AppError("too_large", "PAYLOAD_TOO_LARGE", `The body is larger than ${EVENT_BODY_LIMIT} bytes`),
          );
        return next(err);
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers[k] = v;
      const connection = typeof req.query.connection === "string" ? req.query.connection : "";
      client
        .receiveEvent({
          provider,
          connection_id: connection,
          headers,
          body: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
        })
        .then((answer) => res.status(202).json({ outcome: answer.outcome, delivery_id: answer.delivery_id }))
        .catch(next);
    });
  });
}

/** The OpenAPI path item of the events route (served outside the route table: raw bytes in). */
export function integrationEventsPaths(): Record<string, Record<string, Record<string, unknown>>> {
  const apiError = (description: string) => ({
    description,
    content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
  });
  return {
    "/v1/integrations/{provider}/events": {
      post: {
        operationId: "receiveProviderEvent",
        summary: "A hosting provider's webhook delivery (Gitea: X-Gitea-Signature, HMAC-SHA256 of the body)",
        tags: ["Integrations"],
        security: [],
        parameters: [
          { name: "provider", in: "path", required: true, schema: { type: "string", enum: ["gitea"] } },
          {
            name: "connection",
            in: "query",
            required: true,
            description: "The connection whose webhook secret signs the delivery (its events_url carries it)",
            schema: { type: "string", pattern: "^conn_" },
          },
        ],
        requestBody: {
          required: true,
          description: `The provider's payload as it sent it, at most ${EVENT_BODY_LIMIT} bytes`,
          content: { "application/json": { schema: { type: "object", additionalProperties: true } } },
        },
        responses: {
          202: {
            description: "Accepted (queued for a check), duplicate (seen before) or ignored (nothing to check)",
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["outcome", "delivery_id"],
                  properties: {
                    outcome: { type: "string", enum: ["accepted", "duplicate", "ignored"] },
                    delivery_id: { type: "string" },
                  },
                },
              },
            },
          },
          400: apiError("INVALID_PAYLOAD: signed, but not a payload the provider sends"),
          401: apiError(
            "INVALID_SIGNATURE: the signature does not match the connection's secret, or no such connection",
          ),
          404: apiError("RESOURCE_NOT_FOUND: no such provider"),
          413: apiError("PAYLOAD_TOO_LARGE"),
          429: apiError("RATE_LIMIT_EXCEEDED"),
        },
      },
    },
  };
}
