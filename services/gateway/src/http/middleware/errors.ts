// One error mapping for every handler: the spec's error body, rate limits' headers, and a log
// line for what was not the caller's fault.
import type { ErrorRequestHandler } from "express";
import { AppError, errorBody, errors, type Logger } from "@verdict/kit";
import { RateLimitedError, rateHeaders } from "../rateLimit.js";
import { locals } from "./locals.js";

export function errorResponses(logger: Logger): ErrorRequestHandler {
  return (err: unknown, _req, res, _next) => {
    const appErr = toAppError(err);
    if (!(appErr instanceof AppError) || appErr.kind === "internal") {
      logger.error({ err, request_id: locals(res).requestId }, "request failed");
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
  };
}

/** Body-parser errors and anything unexpected become the spec's error bodies. */
export function toAppError(err: unknown): AppError {
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
