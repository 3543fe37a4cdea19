// The express app. Each route of the table runs the same pipeline: request id, authentication,
// rate limits, access check, body parsing, validation, the handler, and one error mapping.
// The body is read only after the caller is authenticated and within its limits.
import express, { type NextFunction, type Request, type RequestHandler, type Response } from "express";
import helmet from "helmet";
import { SpanKind, SpanStatusCode, context, trace } from "@opentelemetry/api";
import { AppError, errorBody, errors, httpRequestDuration, newId, tracer, type Logger } from "@verdict/kit";
import type { Clients } from "../clients.js";
import { Authenticator, hasScope, presentedKey, type Principal } from "./auth.js";
import type { TrustProxy } from "../options.js";
import { buildOpenApi } from "./openapi.js";
import { mountPortal } from "./portal.js";
import { RateLimitedError, RateLimiter, rateHeaders } from "./rateLimit.js";
import type { Route } from "./route.js";
import { parseOr400 } from "./validation.js";
import { parseBody, withEncoding, WORKER_BODIES, type BodyJob, type BodyOutcome } from "./bodies.js";
import { bodyClassOf, bodyLimit, type BodyClass } from "./bodyLimits.js";
import { PoolJobError, type FairPool } from "@verdict/runtime";
import {
  clearSessionCookie,
  cookieMode,
  csrfValid,
  sessionTokenFrom,
  setSessionCookie,
  UNSAFE_METHODS,
} from "./session.js";

export interface AppOptions {
  routes: Route[];
  clients: Clients;
  authenticator: Authenticator;
  limiter: RateLimiter;
  logger: Logger;
  bodyLimitBytes: number;
  trustProxy: TrustProxy;
  requestSchemaIds: Set<string>;
  /** Public base URL of the API (…/v1); unset: from each request's protocol and host. */
  publicUrl?: string;
  /**
   * Evaluation requests of one organization in flight at once (their bodies, up to the body
   * limit each, are held in memory); one more answers 429 before its body is read. Unset: no cap.
   */
  maxEvaluationsInFlightPerOrg?: number;
  /**
   * Bodies of the routes in WORKER_BODIES of at least `minBytes` are decoded, parsed and
   * validated on these worker threads (one organization's turn at a time), not on this thread.
   * Unset: every body is parsed here.
   */
  bodyWorkers?: { pool: Pick<FairPool<BodyJob, BodyOutcome>, "run">; minBytes: number; timeoutMs: number };
  /**
   * Mounts handlers that are no route of the table (the OAuth server), before the 404 fallback;
   * `throttle` counts a request against its address like any unauthenticated call (429 past it).
   */
  mount?: (app: express.Express, throttle: express.RequestHandler) => void;
  /** The built dashboard, served at `/` (undefined: no pages). */
  portalDir?: string | undefined;
}

interface Locals {
  requestId: string;
  routePath: string;
  principal?: Principal;
}

const locals = (res: Response) => res.locals as Locals;

export function buildApp(opts: AppOptions): express.Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", opts.trustProxy);
  // (Prometheus metrics are never served here: see VERDICT_METRICS_PORT.)
  app.set("query parser", "simple");
  app.use(helmet());

  app.use((req, res, next) => {
    const started = process.hrtime.bigint();
    const l = locals(res);
    l.requestId = newId("req");
    l.routePath = "unmatched";
    res.setHeader("X-Request-Id", l.requestId);
    res.on("finish", () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      httpRequestDuration.observe({ method: req.method, route: l.routePath, status: String(res.statusCode) }, seconds);
      // req.path, never req.url: the legacy api_key query parameter must not reach the logs.
      opts.logger.info(
        {
          request_id: l.requestId,
          method: req.method,
          path: req.path,
          route: l.routePath,
          status: res.statusCode,
          duration_ms: Math.round(seconds * 1000),
          organization_id: l.principal?.organizationId,
          key_id: l.principal?.keyId || undefined,
          user_id: l.principal?.session?.userId,
        },
        "request",
      );
    });
    next();
  });

  // One JSON parser per body class, each with its class's limit (bodyLimits.ts).
  const jsonParsers = new Map<BodyClass, RequestHandler>();
  const jsonParserFor = (cls: BodyClass) => {
    let parser = jsonParsers.get(cls);
    if (!parser) {
      parser = express.json({ limit: bodyLimit(cls, opts.bodyLimitBytes), strict: true, type: () => true });
      jsonParsers.set(cls, parser);
    }
    return parser;
  };
  const rawParser = express.raw({ limit: bodyLimit("evaluation", opts.bodyLimitBytes), type: () => true });
  const run = (parser: RequestHandler, req: Request, res: Response) =>
    new Promise<void>((resolve, reject) => parser(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
  const readJson = (r: Route, req: Request, res: Response) => run(jsonParserFor(bodyClassOf(r)), req, res);

  /**
   * A body of a WORKER_BODIES route: its bytes read here (the I/O), the rest on a body worker
   * when it is large. Another charset than UTF-8 goes the ordinary way (express.json decodes it).
   */
  const workerBody = async (
    operationId: string,
    principal: Principal | undefined,
    req: Request,
    res: Response,
  ): Promise<unknown> => {
    await run(rawParser, req, res);
    const bytes: unknown = req.body;
    if (!Buffer.isBuffer(bytes)) return parseOr400(WORKER_BODIES[operationId]!, undefined);
    const outcome =
      opts.bodyWorkers && bytes.length >= opts.bodyWorkers.minBytes
        ? await opts.bodyWorkers.pool
            .run(
              principal?.organizationId ?? `ip:${req.ip}`,
              { operationId, bytes, ...(principal ? { organizationId: principal.organizationId } : {}) },
              {
                timeoutMs: opts.bodyWorkers.timeoutMs,
                // The body's own buffer moves to the worker rather than being copied.
                ...(bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
                  ? { transferList: [bytes.buffer as ArrayBuffer] }
                  : {}),
              },
            )
            .catch((err: unknown) => {
              // Shutting down, or the threads too busy to parse it in time: retry later.
              if (err instanceof PoolJobError)
                throw errors.unavailable("The request body could not be read in time; retry");
              throw err;
            })
        : parseBody(operationId, bytes);
    req.body = undefined;
    if (outcome.kind === "malformed") throw toAppError({ type: "entity.parse.failed" });
    if (outcome.kind === "invalid") throw errors.validation(outcome.errors);
    return withEncoding(outcome);
  };
  const utf8 = (req: Request) => {
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(req.get("content-type") ?? "")?.[1]?.toLowerCase();
    return charset === undefined || charset === "utf-8" || charset === "utf8";
  };

  const anonymous = async (req: Request, res: Response) => {
    res.set(rateHeaders(await opts.limiter.consume(`ip:${req.ip}`, opts.limiter.bucketsForAnonymous())));
  };

  const evaluationsInFlight = new Map<string, number>();
  /** Counts the request against its organization's evaluations in flight until it is answered. */
  const admitEvaluation = (organizationId: string, res: Response) => {
    const max = opts.maxEvaluationsInFlightPerOrg;
    if (!max) return;
    const n = evaluationsInFlight.get(organizationId) ?? 0;
    if (n >= max) {
      throw new AppError(
        "rate_limited",
        "RATE_LIMIT_EXCEEDED",
        `At most ${max} evaluations of an organization are in flight at once; retry when one has finished`,
        {
          limit: max,
          window: "concurrent",
          retry_after: 1,
        },
      );
    }
    evaluationsInFlight.set(organizationId, n + 1);
    res.once("close", () => {
      const left = (evaluationsInFlight.get(organizationId) ?? 1) - 1;
      if (left > 0) evaluationsInFlight.set(organizationId, left);
      else evaluationsInFlight.delete(organizationId);
    });
  };
  // Which methods each path template answers (405 and its Allow header), and the names of its
  // parameters (to name the one a malformed path segment stands for).
  const templates = new Map<string, { re: RegExp; methods: Set<string>; params: (string | undefined)[] }>();
  for (const r of opts.routes) {
    const segments = r.path.split("/");
    const t = templates.get(r.path) ?? {
      re: new RegExp(`^${r.path.replace(/:[A-Za-z_]+/g, "[^/]+")}/?$`),
      methods: new Set<string>(),
      params: segments.map((seg) => (seg.startsWith(":") ? seg.slice(1) : undefined)),
    };
    t.methods.add(r.method.toUpperCase());
    if (r.method === "get") t.methods.add("HEAD");
    templates.set(r.path, t);
  }
  // A path both a literal route and a templated one match (`/v1/policies/pattern-tests`,
  // `/v1/policies/:policy_id`) belongs to the literal one: fewest parameters first.
  const byLiteralFirst = [...templates.values()].sort(
    (a, b) => a.params.filter(Boolean).length - b.params.filter(Boolean).length,
  );

  // A path segment that is no valid percent-encoding (`/v1/evaluations/%ZZ`) would make the
  // router throw while decoding parameters, before any route runs: answer it here, counted
  // against the caller's address like any unauthenticated call, as a 400 on the parameter.
  app.use(async (req, res, next) => {
    const segments = req.path.split("/");
    const bad = segments.findIndex((seg) => !decodes(seg));
    if (bad < 0) return next();
    try {
      locals(res).routePath = "malformed";
      await anonymous(req, res);
      const template = byLiteralFirst.find((t) => t.re.test(req.path) && t.params.length === segments.length);
      const field = template?.params[bad] ?? "path";
      next(
        errors.validation([
          { field, code: "INVALID_FORMAT", message: `${field} is not a valid percent-encoded path segment` },
        ]),
      );
    } catch (err) {
      next(err);
    }
  });

  /**
   * The signed-in person on a public route that also serves them (an invitation accepted while
   * signed in): a valid session with its CSRF token, else nobody (a stale cookie is ignored).
   */
  const sessionIfPresent = async (req: Request): Promise<Principal | undefined> => {
    const token = req.headers.authorization === undefined ? sessionTokenFrom(req) : undefined;
    if (token === undefined) return undefined;
    const principal = await opts.authenticator.authenticateSession(token, req.ip ?? "").catch(() => undefined);
    if (principal && UNSAFE_METHODS.has(req.method) && !csrfValid(req, token)) throw csrfFailed();
    return principal;
  };

  const handle =
    (r: Route): RequestHandler =>
    async (req, res, next) => {
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
          let principal: Principal | undefined;
          if (r.access.kind === "public" && r.unmetered) {
            res.set(rateHeaders(await opts.limiter.peek(`ip:${req.ip}`, opts.limiter.bucketsForAnonymous())));
          } else if (r.access.kind === "public") {
            await anonymous(req, res);
            if (r.sessionIfPresent) principal = await sessionIfPresent(req);
          } else {
            try {
              const sessionToken =
                req.headers.authorization === undefined && req.query.api_key === undefined
                  ? sessionTokenFrom(req)
                  : undefined;
              if (sessionToken !== undefined) {
                principal = await opts.authenticator.authenticateSession(sessionToken, req.ip ?? "");
                // A browser sends the cookie with any request a page makes: unsafe ones must also
                // prove they come from our pages (the token a cross-site page cannot read).
                if (UNSAFE_METHODS.has(req.method) && !csrfValid(req, sessionToken)) throw csrfFailed();
                if (principal.session!.mfaEnrolmentRequired && !r.duringMfaEnrolment) {
                  throw new AppError(
                    "forbidden",
                    "AUTH_MFA_ENROLMENT_REQUIRED",
                    "Your organization requires multi-factor authentication: enrol with POST /auth/mfa/totp/enrolment before anything else",
                  );
                }
              } else {
                const presented = presentedKey(req);
                principal = await opts.authenticator.authenticate(presented.key, req.ip ?? "");
                if (presented.legacyQuery) {
                  res.setHeader("Deprecation", "true");
                  opts.logger.warn(
                    { request_id: l.requestId, key_id: principal.keyId },
                    "API key sent as ?api_key= query parameter: discouraged, use Authorization: Bearer",
                  );
                }
              }
            } catch (err) {
              // Failed authentication counts against the caller's address (guessing keys is throttled).
              await anonymous(req, res);
              throw err;
            }
            l.principal = principal;
            span.setAttribute("verdict.organization_id", principal.organizationId);
            res.set(
              rateHeaders(
                await opts.limiter.consume(
                  `org:${principal.organizationId}`,
                  opts.limiter.bucketsForOrg(principal.rateLimits, r.rateClass),
                ),
              ),
            );
            if (r.access.kind === "scope" && !hasScope(principal, r.access.scope))
              throw errors.insufficientScope(r.access.scope, principal.scopes);
            if (r.access.kind === "operator" && !principal.operator) {
              throw errors.forbidden(
                "AUTH_ORG_ACCESS_DENIED",
                "Only the instance operator (the bootstrap key) may manage organizations",
              );
            }
            if (r.rateClass === "evaluations_create") admitEvaluation(principal.organizationId, res);
          }
          const params = r.params ? parseOr400(r.params, req.params) : {};
          // The legacy credential is not part of any route's query contract.
          const { api_key: _credential, ...rawQuery } = req.query as Record<string, unknown>;
          const query = r.query ? parseOr400(r.query, rawQuery) : {};
          let body: unknown;
          if (r.body) {
            if (!req.is("application/json")) {
              throw errors.validation([
                {
                  field: "body",
                  code: "INVALID_FORMAT",
                  message: "Send a JSON body with Content-Type: application/json",
                },
              ]);
            }
            if (WORKER_BODIES[r.operationId] && utf8(req)) {
              body = await workerBody(r.operationId, principal, req, res);
            } else {
              await readJson(r, req, res);
              body = parseOr400(r.body, req.body);
            }
          }
          const apiBaseUrl = opts.publicUrl ?? `${req.protocol}://${req.get("host") ?? "localhost"}/v1`;
          // A client that goes away before its answer cancels the work done for it (a long scan).
          const gone = new AbortController();
          const onClose = () => {
            if (!res.writableFinished) gone.abort();
          };
          res.once("close", onClose);
          const result = await r.handler({
            params,
            query,
            body,
            rawBody: r.body ? req.body : undefined,
            principal,
            requestId: l.requestId,
            clients: opts.clients,
            apiBaseUrl,
            signal: gone.signal,
            clientIp: req.ip ?? "",
            userAgent: req.get("user-agent") ?? "",
            cookieMode: cookieMode(req),
            cookieHeader: req.get("cookie"),
            ifMatch: req.get("if-match"),
          });
          span.setAttribute("http.response.status_code", result.status);
          if (result.headers) res.set(result.headers);
          for (const cookie of result.setCookies ?? []) res.append("Set-Cookie", cookie);
          if (result.session === "clear") clearSessionCookie(req, res);
          else if (result.session) setSessionCookie(req, res, result.session.token, result.session.expiresAt);
          if (result.file)
            res
              .status(result.status)
              .type(result.file.contentType)
              .attachment(result.file.filename)
              .send(result.file.content);
          else if (result.body === undefined) res.status(result.status).end();
          else res.status(result.status).json(result.body);
        });
      } catch (err) {
        span.setStatus({ code: SpanStatusCode.ERROR });
        next(err);
      } finally {
        span.end();
      }
    };

  for (const r of opts.routes) app[r.method](r.path, handle(r));

  const openapi = buildOpenApi(opts.routes, opts.requestSchemaIds);

  // What is served outside the route table (the OAuth server, its pages, SSO's browser legs)
  // answers a method its path does not serve as the API does: 405 with Allow, from the methods
  // the OpenAPI document gives that path (oidc-provider would say 404, express nothing).
  const pages = pageTemplates(openapi, opts.routes);
  app.use(async (req, res, next) => {
    const page = pages.find((t) => t.re.test(req.path));
    // A CORS preflight stays oidc-provider's: browsers' public clients call its token endpoint.
    const preflight = req.method === "OPTIONS" && !!req.get("origin") && !!req.get("access-control-request-method");
    if (!page || page.methods.has(req.method) || preflight) return next();
    try {
      locals(res).routePath = page.path;
      await anonymous(req, res);
      const allow = [...page.methods].join(", ");
      res.setHeader("Allow", allow);
      next(
        new AppError(
          "method_not_allowed",
          "METHOD_NOT_ALLOWED",
          `${req.method} is not allowed on ${req.path}; allowed: ${allow}`,
        ),
      );
    } catch (err) {
      next(err);
    }
  });

  opts.mount?.(app, (req, res, next) => {
    anonymous(req, res).then(() => next(), next);
  });

  app.get("/v1/openapi.json", async (req, res, next) => {
    try {
      locals(res).routePath = "/v1/openapi.json";
      await anonymous(req, res);
      res.json(openapi);
    } catch (err) {
      next(err);
    }
  });

  if (opts.portalDir) {
    mountPortal(app, opts.portalDir);
    app.set("portal", opts.portalDir);
  }

  app.use(async (req, res, next) => {
    try {
      await anonymous(req, res);
      const allowed = byLiteralFirst.find((t) => t.re.test(req.path));
      if (allowed) {
        res.setHeader("Allow", [...allowed.methods].join(", "));
        return next(
          new AppError(
            "method_not_allowed",
            "METHOD_NOT_ALLOWED",
            `${req.method} is not allowed on ${req.path}; allowed: ${[...allowed.methods].join(", ")}`,
          ),
        );
      }
      next(
        new AppError("not_found", "RESOURCE_NOT_FOUND", `No route for ${req.method} ${req.path}`, {
          resource_type: "route",
          resource_id: `${req.method} ${req.path}`,
        }),
      );
    } catch (err) {
      next(err);
    }
  });

  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const appErr = toAppError(err);
    if (!(appErr instanceof AppError) || appErr.kind === "internal") {
      opts.logger.error({ err, request_id: locals(res).requestId }, "request failed");
    }
    if (appErr instanceof RateLimitedError) {
      res.set(rateHeaders(appErr.state));
      res.set("Retry-After", String(appErr.retryAfter));
    } else if (
      appErr instanceof AppError &&
      appErr.kind === "rate_limited" &&
      typeof appErr.details?.retry_after === "number"
    ) {
      // A service's own limit (evaluations in flight per organization).
      res.set("Retry-After", String(appErr.details.retry_after));
    }
    if (res.headersSent) return;
    res.setHeader("Cache-Control", "no-store");
    res.status(appErr.httpStatus).json(errorBody(appErr, locals(res).requestId));
  });

  return app;
}

function decodes(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

/** Body-parser errors and anything unexpected become the spec's error bodies. */
function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const e = err as { type?: string; limit?: number; status?: number };
  if (e?.type === "entity.parse.failed") {
    return errors.validation(
      [{ field: "body", code: "INVALID_FORMAT", message: "Body is not valid JSON" }],
      "Malformed JSON body",
    );
  }
  if (e?.type === "entity.too.large") {
    return new AppError("too_large", "VALIDATION_FAILED", "Request body too large", {
      errors: [
        { field: "body", code: "MAX_SIZE_EXCEEDED", message: `Body must be at most ${e.limit} bytes`, max: e.limit },
      ],
    });
  }
  if (e?.type === "encoding.unsupported" || e?.type === "charset.unsupported") {
    return errors.validation([{ field: "body", code: "INVALID_FORMAT", message: "Body must be UTF-8 JSON" }]);
  }
  if (e?.type === "request.aborted")
    return errors.validation([{ field: "body", code: "INVALID_FORMAT", message: "Request body was aborted" }]);
  return errors.internal();
}

const HTTP_METHODS = new Set(["get", "put", "post", "delete", "patch"]);

/** The documented paths that are not in the route table, each with the methods it answers. */
function pageTemplates(
  openapi: Record<string, unknown>,
  routes: Route[],
): { path: string; re: RegExp; methods: Set<string> }[] {
  const inTable = new Set(routes.map((r) => r.path.replace(/:([A-Za-z_]+)/g, "{$1}")));
  const paths = (openapi.paths ?? {}) as Record<string, Record<string, unknown>>;
  return Object.entries(paths)
    .filter(([path]) => !inTable.has(path))
    .map(([path, item]) => {
      const methods = new Set(
        Object.keys(item)
          .filter((m) => HTTP_METHODS.has(m))
          .map((m) => m.toUpperCase()),
      );
      if (methods.has("GET")) methods.add("HEAD");
      const pattern = path
        .split(/\{[^}]+\}/)
        .map((literal) => literal.replace(/[.*+?^$()|[\]\\]/g, "\\$&"))
        .join("[^/]+");
      return { path, re: new RegExp(`^${pattern}/?$`), methods };
    });
}

const csrfFailed = () =>
  new AppError(
    "forbidden",
    "AUTH_CSRF_FAILED",
    "Send the session's CSRF token in the X-CSRF-Token header (GET /auth/session answers it)",
  );
