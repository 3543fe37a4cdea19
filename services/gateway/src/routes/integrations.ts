// The providers' inbound webhook deliveries (the integrations service). The connection routes are
// generated from proto/verdict/integrations/v1/integrations.proto (src/gen/integrations.rest.ts).
//
// Hand-written, and why: a delivery's body is the provider's bytes, passed on unparsed, because the
// integrations service checks their signature before anything parses them (a generated route
// takes JSON through a zod schema), and its caller is the provider, proven by that signature
// rather than by a credential.
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from "express";
import { AppError, errors } from "@verdict/kit";
import type { Clients } from "../clients.js";
import { integrationsClient } from "../gen/integrations.rest.js";
import { bodyLimit } from "../http/bodyLimits.js";

/**
 * A provider's webhook deliveries: small JSON documents (Gitea sends a few KiB, GitHub's pull
 * request events tens of KiB; GitHub's own cap is 25 MB, a push of thousands of commits).
 */
const EVENT_BODY_LIMIT = 1024 * 1024;
const PROVIDERS = new Set(["gitea", "github", "gitlab"]);

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
        summary:
          "A hosting provider's webhook delivery (Gitea: X-Gitea-Signature; GitHub: X-Hub-Signature-256; HMAC-SHA256 of the body; GitLab: the secret token in X-Gitlab-Token)",
        tags: ["Integrations"],
        security: [],
        parameters: [
          {
            name: "provider",
            in: "path",
            required: true,
            schema: { type: "string", enum: ["gitea", "github", "gitlab"] },
          },
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
