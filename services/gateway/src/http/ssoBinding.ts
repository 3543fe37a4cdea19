// The SSO cookie: a random secret the gateway sets when a browser starts a single sign-on, whose
// hash identity keeps with the sign-in; finishing the sign-in needs the same cookie (login CSRF:
// the IdP's answer to one browser's sign-in is worth nothing in another). `__Host-verdict_sso`
// on https, `verdict_sso` on http://localhost, like the session cookie; SameSite=Lax, so it rides
// the same-site requests that finish a sign-in (the OIDC callback page's POST, the SAML ACS
// page's form post), and it lives as long as a sign-in may take.
import { randomBytes } from "node:crypto";
import { parseCookie, stringifySetCookie } from "cookie";
import type { CookieMode } from "./session.js";

const SECURE_NAME = "__Host-verdict_sso";
const LOCAL_NAME = "verdict_sso";
/** The sign-in state's lifetime (identity's SSO_STATE_TTL_MS). */
const MAX_AGE_SECONDS = 10 * 60;
const FORM = /^[A-Za-z0-9_-]{43}$/;

/** The browser's SSO secret ("" when it sent none, or none can be kept on this address). */
export function ssoBindingFrom(cookieHeader: string | undefined, mode: CookieMode): string {
  if (!cookieHeader || mode === "none") return "";
  const value = parseCookie(cookieHeader)[mode === "secure" ? SECURE_NAME : LOCAL_NAME] ?? "";
  return FORM.test(value) ? value : "";
}

/**
 * The secret a sign-in starting now is bound to (the browser's own, when it has one: sign-ins
 * in two tabs both finish), and the Set-Cookie that keeps it for the sign-in's lifetime.
 */
export function ssoBindingFor(
  cookieHeader: string | undefined,
  mode: CookieMode,
): { binding: string; setCookies: string[] } {
  const binding = ssoBindingFrom(cookieHeader, mode) || randomBytes(32).toString("base64url");
  if (mode === "none") return { binding, setCookies: [] };
  const cookie = stringifySetCookie({
    name: mode === "secure" ? SECURE_NAME : LOCAL_NAME,
    value: binding,
    httpOnly: true,
    secure: mode === "secure",
    sameSite: "lax",
    path: "/",
    maxAge: MAX_AGE_SECONDS,
  });
  return { binding, setCookies: [cookie] };
}
