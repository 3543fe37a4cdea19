// Every request: an id (X-Request-Id), its duration in the HTTP metrics, and one access-log
// line when it is answered.
import type { RequestHandler } from "express";
import { httpRequestDuration, newId, type Logger } from "@verdict/kit";
import { locals } from "./locals.js";

export function requestContext(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const l = locals(res);
    l.requestId = newId("req");
    l.routePath = "unmatched";
    res.setHeader("X-Request-Id", l.requestId);
    res.on("finish", () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      httpRequestDuration.observe({ method: req.method, route: l.routePath, status: String(res.statusCode) }, seconds);
      // req.path, never req.url: the legacy api_key query parameter must not reach the logs.
      logger.info(
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
  };
}
