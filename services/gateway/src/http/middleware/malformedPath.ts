// A path segment that is no valid percent-encoding (`/v1/evaluations/%ZZ`) would make the router
// throw while decoding parameters, before any route runs: answered here, counted against the
// caller's address like any unauthenticated call, as a 400 on the parameter.
import type { RequestHandler } from "express";
import { errors } from "@verdict/kit";
import { locals } from "./locals.js";
import type { PathTemplate } from "./pathTemplates.js";
import type { Throttle } from "./throttle.js";

export function malformedPath(templates: readonly PathTemplate[], throttle: Throttle): RequestHandler {
  return async (req, res, next) => {
    const segments = req.path.split("/");
    const bad = segments.findIndex((seg) => !decodes(seg));
    if (bad < 0) return next();
    try {
      locals(res).routePath = "malformed";
      await throttle(req, res);
      const template = templates.find((t) => t.re.test(req.path) && t.params.length === segments.length);
      const field = template?.params[bad] ?? "path";
      next(
        errors.validation([
          { field, code: "INVALID_FORMAT", message: `${field} is not a valid percent-encoded path segment` },
        ]),
      );
    } catch (err) {
      next(err);
    }
  };
}

function decodes(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}
