// Answers for what no handler served, counted against the caller's address: 405 with Allow for
// a method its path does not serve (a documented page outside the route table, or a route of
// the table), else 404.
import type { RequestHandler } from "express";
import { AppError } from "@verdict/kit";
import { locals } from "./locals.js";
import type { PathTemplate } from "./pathTemplates.js";
import type { Throttle } from "./throttle.js";

function methodNotAllowed(template: PathTemplate, method: string, path: string): AppError {
  const allow = [...template.methods].join(", ");
  return new AppError(
    "method_not_allowed",
    "METHOD_NOT_ALLOWED",
    `${method} is not allowed on ${path}; allowed: ${allow}`,
  );
}

/**
 * What is served outside the route table (the OAuth server, its pages, SSO's browser legs)
 * answers a method its path does not serve as the API does: 405 with Allow, from the methods
 * the OpenAPI document gives that path (oidc-provider would say 404, express nothing). Mounted
 * before those handlers.
 */
export function pageMethodNotAllowed(pages: readonly PathTemplate[], throttle: Throttle): RequestHandler {
  return async (req, res, next) => {
    const page = pages.find((t) => t.re.test(req.path));
    // A CORS preflight stays oidc-provider's: browsers' public clients call its token endpoint.
    const preflight = req.method === "OPTIONS" && !!req.get("origin") && !!req.get("access-control-request-method");
    if (!page || page.methods.has(req.method) || preflight) return next();
    try {
      locals(res).routePath = page.path;
      await throttle(req, res);
      res.setHeader("Allow", [...page.methods].join(", "));
      next(methodNotAllowed(page, req.method, req.path));
    } catch (err) {
      next(err);
    }
  };
}

/** The last handler: 405 on a path of the route table, 404 on any other. */
export function notFound(routes: readonly PathTemplate[], throttle: Throttle): RequestHandler {
  return async (req, res, next) => {
    try {
      await throttle(req, res);
      const allowed = routes.find((t) => t.re.test(req.path));
      if (allowed) {
        res.setHeader("Allow", [...allowed.methods].join(", "));
        return next(methodNotAllowed(allowed, req.method, req.path));
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
  };
}
