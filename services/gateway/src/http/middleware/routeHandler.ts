// One route of the table: its span, its caller (authenticate), its parameters, query and body
// validated, the handler, and the handler's result written out (status, headers, cookies, the
// session cookie, a file or JSON). Errors go to the error middleware.
import type { Request, RequestHandler, Response } from "express";
import { SpanKind, SpanStatusCode, context, trace } from "@opentelemetry/api";
import { tracer } from "@verdict/kit";
import type { Clients } from "../../clients.js";
import type { Route, RouteResult } from "../route.js";
import { clearSessionCookie, cookieMode, setSessionCookie } from "../session.js";
import { parseOr400 } from "../validation.js";
import type { Authenticate } from "./authenticate.js";
import { locals } from "./locals.js";
import type { ReadBody } from "./requestBody.js";

export interface RouteHandlerDeps {
  authenticate: Authenticate;
  readBody: ReadBody;
  clients: Clients;
  /** Public base URL of the API (…/v1); unset: from each request's protocol and host. */
  publicUrl?: string | undefined;
}

export function routeHandler(r: Route, deps: RouteHandlerDeps): RequestHandler {
  return async (req, res, next) => {
    const l = locals(res);
    l.routePath = r.path;
    // Answers carry keys, secrets' surroundings, evaluations and reports: never stored by a
    // browser or a shared cache.
    res.setHeader("Cache-Control", "no-store");
    const span = tracer().startSpan(`${req.method} ${r.path}`, {
      kind: SpanKind.SERVER,
      attributes: { "http.request.method": req.method, "http.route": r.path, "verdict.request_id": l.requestId },
    });
    try {
      await context.with(trace.setSpan(context.active(), span), async () => {
        const principal = await deps.authenticate(r, req, res);
        if (principal) span.setAttribute("verdict.organization_id", principal.organizationId);
        const params = r.params ? parseOr400(r.params, req.params) : {};
        // The legacy credential is not part of any route's query contract.
        const { api_key: _credential, ...rawQuery } = req.query as Record<string, unknown>;
        const query = r.query ? parseOr400(r.query, rawQuery) : {};
        const { body, encoded } = await deps.readBody(r, principal, req, res);
        const apiBaseUrl = deps.publicUrl ?? `${req.protocol}://${req.get("host") ?? "localhost"}/v1`;
        // A client that goes away before its answer cancels the work done for it (a long scan).
        const gone = new AbortController();
        res.once("close", () => {
          if (!res.writableFinished) gone.abort();
        });
        const result = await r.handler({
          params,
          query,
          body,
          encodedEvaluation: encoded,
          rawBody: r.body ? req.body : undefined,
          principal,
          requestId: l.requestId,
          clients: deps.clients,
          apiBaseUrl,
          signal: gone.signal,
          clientIp: req.ip ?? "",
          userAgent: req.get("user-agent") ?? "",
          cookieMode: cookieMode(req),
          cookieHeader: req.get("cookie"),
          ifMatch: req.get("if-match"),
        });
        span.setAttribute("http.response.status_code", result.status);
        writeResult(result, req, res);
      });
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR });
      next(err);
    } finally {
      span.end();
    }
  };
}

function writeResult(result: RouteResult, req: Request, res: Response): void {
  if (result.headers) res.set(result.headers);
  for (const cookie of result.setCookies ?? []) res.append("Set-Cookie", cookie);
  if (result.session === "clear") clearSessionCookie(req, res);
  else if (result.session) setSessionCookie(req, res, result.session.token, result.session.expiresAt);
  if (result.file)
    // attachment() guesses a type from the file name (octet-stream for .jsonl): the route's type goes after it.
    res.status(result.status).attachment(result.file.filename).type(result.file.contentType).send(result.file.content);
  else if (result.body === undefined) res.status(result.status).end();
  else res.status(result.status).json(result.body);
}
