// Token and revocation requests as JSON (the spec shows JSON; oidc-provider reads form bodies):
// read, checked to hold only string values, and handed on as the form body they stand for.
import express, { type RequestHandler, type Response } from "express";

const TOKEN_PATHS = new Set(["/auth/oauth/token", "/auth/oauth/revoke"]);

export function tokenJsonBody(limit: number): RequestHandler {
  const json = express.json({ limit, strict: true });
  return (req, res, next) => {
    if (req.method !== "POST" || !TOKEN_PATHS.has(req.path) || !req.is("application/json")) return next();
    json(req, res, (err?: unknown) => {
      if ((err as { type?: string } | undefined)?.type === "entity.too.large")
        return oauthError(res, 413, "invalid_request", `the body is larger than ${limit} bytes`);
      if (err) return oauthError(res, 400, "invalid_request", "the body is not valid JSON");
      const body = req.body as unknown;
      if (typeof body !== "object" || body === null || Array.isArray(body))
        return oauthError(res, 400, "invalid_request", "the body must be a JSON object");
      for (const [k, v] of Object.entries(body)) {
        if (typeof v !== "string") return oauthError(res, 400, "invalid_request", `${k} must be a string`);
      }
      req.headers["content-type"] = "application/x-www-form-urlencoded";
      next();
    });
  };
}

function oauthError(res: Response, status: number, error: string, description: string): void {
  res.status(status).setHeader("Cache-Control", "no-store");
  res.json({ error, error_description: description });
}
