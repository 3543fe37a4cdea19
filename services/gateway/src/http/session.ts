// Session cookies and CSRF. The cookie is `__Host-verdict_session` (Secure, HttpOnly,
// SameSite=Lax, Path=/, no Domain) on https; plain `verdict_session` only on http://localhost
// (a browser keeps no Secure cookie over http); on plain http elsewhere there is no sign-in.
// The CSRF token is derived from the session token (HMAC), so it is bound to that session, a
// page can fetch it again (GET /auth/session), and nothing else has to be stored.
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Request, Response } from "express";
import { parseCookie, stringifySetCookie } from "cookie";

export const SECURE_COOKIE = "__Host-verdict_session";
export const LOCAL_COOKIE = "verdict_session";
export const CSRF_HEADER = "x-csrf-token";

export type CookieMode = "secure" | "local" | "none";

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

export function cookieMode(req: Request): CookieMode {
  if (req.protocol === "https") return "secure";
  return LOOPBACK_HOSTS.has((req.hostname ?? "").toLowerCase()) ? "local" : "none";
}

export function sessionTokenFrom(req: Request): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  const mode = cookieMode(req);
  if (mode === "none") return undefined;
  const cookies = parseCookie(header);
  return mode === "secure" ? cookies[SECURE_COOKIE] : cookies[LOCAL_COOKIE];
}

export function setSessionCookie(req: Request, res: Response, token: string, expiresAt: string): void {
  const mode = cookieMode(req);
  if (mode === "none") return;
  res.append(
    "Set-Cookie",
    stringifySetCookie({
      name: mode === "secure" ? SECURE_COOKIE : LOCAL_COOKIE,
      value: token,
      httpOnly: true,
      secure: mode === "secure",
      sameSite: "lax",
      path: "/",
      expires: new Date(expiresAt),
    }),
  );
}

export function clearSessionCookie(req: Request, res: Response): void {
  const mode = cookieMode(req);
  if (mode === "none") return;
  res.append(
    "Set-Cookie",
    stringifySetCookie({
      name: mode === "secure" ? SECURE_COOKIE : LOCAL_COOKIE,
      value: "",
      httpOnly: true,
      secure: mode === "secure",
      sameSite: "lax",
      path: "/",
      expires: new Date(0),
    }),
  );
}

export function csrfTokenFor(sessionToken: string): string {
  return createHmac("sha256", sessionToken).update("verdict csrf v1").digest("base64url");
}

/** Constant-time comparison of the presented header with the session's token. */
export function csrfValid(req: Request, sessionToken: string): boolean {
  const presented = req.get(CSRF_HEADER);
  if (!presented) return false;
  const a = Buffer.from(presented, "utf8");
  const b = Buffer.from(csrfTokenFor(sessionToken), "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}

export const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
