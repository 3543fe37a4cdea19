// {api_root}/scim/v2 (RFC 7644): the gateway only carries each request to the identity service
// (HandleScim) and its answer back, as application/scim+json. Authentication is the SCIM token
// alone (no API keys, sessions or OAuth tokens), and errors keep SCIM's format, not /v1's.
// Not generated from identity.proto (docs/contracts.md): SCIM's resources, media type, ETags and
// error bodies are RFC 7644's, outside /v1 and the OpenAPI document.
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from "express";
import type { Logger } from "@verdict/kit";
import type { Clients } from "../clients.js";
import { bodyLimit } from "../http/bodyLimits.js";
import { publicOrigin } from "../http/restTypes.js";

export const SCIM_BASE_PATH = "/scim/v2";
const SCIM_ERROR = "urn:ietf:params:scim:api:messages:2.0:Error";
const CONTENT_TYPE = "application/scim+json; charset=utf-8";

export interface ScimMountOptions {
  clients: Clients;
  logger: Logger;
  /** VERDICT_MAX_BODY_BYTES: SCIM takes its class's limit, never more (bodyLimits.ts). */
  bodyLimitBytes: number;
  /** Public base URL of the API (…/v1); unset: the request's host. */
  publicUrl?: string;
}

function scimError(res: Response, status: number, detail: string, scimType?: string): void {
  res
    .status(status)
    .type(CONTENT_TYPE)
    .send(JSON.stringify({ schemas: [SCIM_ERROR], status: String(status), ...(scimType ? { scimType } : {}), detail }));
}

function bearer(req: Request): string {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.get("authorization") ?? "");
  return m?.[1] ?? "";
}

export function mountScim(app: Express, throttle: RequestHandler, opts: ScimMountOptions): void {
  // Any content type: Okta sends application/scim+json, some clients application/json.
  const limit = bodyLimit("scim", opts.bodyLimitBytes);
  const text = express.text({ type: () => true, limit });
  app.use(SCIM_BASE_PATH, throttle, (req: Request, res: Response, next: NextFunction) => {
    res.setHeader("Cache-Control", "no-store");
    text(req, res, (err?: unknown) => {
      if (!err) return next();
      const e = err as { type?: string };
      if (e.type === "entity.too.large") return scimError(res, 413, `The body is larger than ${limit} bytes`);
      scimError(res, 400, "The body could not be read as UTF-8 text", "invalidSyntax");
    });
  });
  app.use(SCIM_BASE_PATH, async (req: Request, res: Response) => {
    const query: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.query)) {
      const first = Array.isArray(v) ? v[0] : v;
      if (typeof first === "string") query[k] = first;
    }
    const origin = opts.publicUrl
      ? publicOrigin(opts.publicUrl)
      : `${req.protocol}://${req.get("host") ?? "localhost"}`;
    try {
      const answer = await opts.clients.identity.handleScim({
        token: bearer(req),
        method: req.method === "HEAD" ? "GET" : req.method,
        path: req.path,
        query,
        body_json: typeof req.body === "string" ? req.body : "",
        if_match: req.get("if-match") ?? "",
        if_none_match: req.get("if-none-match") ?? "",
        base_url: `${origin}${SCIM_BASE_PATH}`,
        client_ip: req.ip ?? "",
      });
      if (answer.etag) res.setHeader("ETag", answer.etag);
      if (answer.location) res.setHeader("Location", answer.location);
      if (answer.status === 401) res.setHeader("WWW-Authenticate", 'Bearer realm="scim"');
      res.status(answer.status);
      if (!answer.body_json) return res.end();
      res.type(CONTENT_TYPE).send(answer.body_json);
    } catch (err) {
      opts.logger.error({ err }, "SCIM request could not reach the identity service");
      scimError(res, 503, "The identity service is unavailable; retry");
    }
  });
}
