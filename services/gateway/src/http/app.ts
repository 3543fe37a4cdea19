// The express app: the middleware of services/gateway/src/http/middleware/, one concern each,
// in the order a request meets them. Each route of the table runs the same pipeline
// (routeHandler.ts): authentication, rate limits, access check, body parsing, validation, the
// handler; the body is read only after the caller is authenticated and within its limits.
import express from "express";
import helmet from "helmet";
import type { Logger } from "@verdict/kit";
import type { Clients } from "../clients.js";
import type { TrustProxy } from "../options.js";
import type { Authenticator } from "./auth.js";
import { authenticator } from "./middleware/authenticate.js";
import { errorResponses } from "./middleware/errors.js";
import { EvaluationAdmission } from "./middleware/evaluationAdmission.js";
import { locals } from "./middleware/locals.js";
import { malformedPath } from "./middleware/malformedPath.js";
import { notFound, pageMethodNotAllowed } from "./middleware/notFound.js";
import { documentedPageTemplates, routeTemplates } from "./middleware/pathTemplates.js";
import { bodyReader, type BodyWorkers } from "./middleware/requestBody.js";
import { requestContext } from "./middleware/requestContext.js";
import { routeHandler } from "./middleware/routeHandler.js";
import { addressThrottle, throttleMiddleware } from "./middleware/throttle.js";
import { buildOpenApi } from "./openapi.js";
import { mountPortal } from "./portal.js";
import type { RateLimiter } from "./rateLimit.js";
import type { Route } from "./route.js";

export interface AppOptions {
  routes: Route[];
  clients: Clients;
  authenticator: Authenticator;
  limiter: RateLimiter;
  logger: Logger;
  bodyLimitBytes: number;
  trustProxy: TrustProxy;
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
  bodyWorkers?: BodyWorkers;
  /**
   * Mounts handlers that are no route of the table (the OAuth server), before the 404 fallback;
   * `throttle` counts a request against its address like any unauthenticated call (429 past it).
   */
  mount?: (app: express.Express, throttle: express.RequestHandler) => void;
  /** The built dashboard, served at `/` (undefined: no pages). */
  portalDir?: string | undefined;
}

export function buildApp(opts: AppOptions): express.Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", opts.trustProxy);
  // (Prometheus metrics are never served here: see VERDICT_METRICS_PORT.)
  app.set("query parser", "simple");

  const throttle = addressThrottle(opts.limiter);
  const routePaths = routeTemplates(opts.routes);
  const openapi = buildOpenApi(opts.routes);
  const pipeline = {
    authenticate: authenticator({
      authenticator: opts.authenticator,
      limiter: opts.limiter,
      throttle,
      admission: new EvaluationAdmission(opts.maxEvaluationsInFlightPerOrg),
      logger: opts.logger,
    }),
    readBody: bodyReader(opts.bodyLimitBytes, opts.bodyWorkers),
    clients: opts.clients,
    publicUrl: opts.publicUrl,
  };

  app.use(helmet());
  app.use(requestContext(opts.logger));
  app.use(malformedPath(routePaths, throttle));
  for (const r of opts.routes) app[r.method](r.path, routeHandler(r, pipeline));
  app.use(pageMethodNotAllowed(documentedPageTemplates(openapi, opts.routes), throttle));
  opts.mount?.(app, throttleMiddleware(throttle));
  app.get("/v1/openapi.json", async (req, res, next) => {
    try {
      locals(res).routePath = "/v1/openapi.json";
      await throttle(req, res);
      res.json(openapi);
    } catch (err) {
      next(err);
    }
  });
  if (opts.portalDir) {
    mountPortal(app, opts.portalDir);
    app.set("portal", opts.portalDir);
  }
  app.use(notFound(routePaths, throttle));
  app.use(errorResponses(opts.logger));
  return app;
}
