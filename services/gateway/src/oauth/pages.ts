// The pages of an authorization's interaction: sign-in, second factor, consent, and what a
// person sees when it cannot go on.
import type { NextFunction, Response } from "express";
import type { Principal } from "../http/auth.js";
import { escapeHtml, page } from "./provider.js";

const SCOPE_TEXT: Record<string, string> = {
  "read:evaluations": "read evaluations",
  "write:evaluations": "run and delete evaluations",
  "read:policies": "read policies and compliance reports",
  "write:policies": "create, change and delete policies",
  "read:org": "read the organization, its repositories and webhooks",
  "write:org": "change the organization, its repositories and webhooks",
  admin: "administer the organization (keys, members, everything)",
};

/**
 * An interaction that cannot go on (expired, unknown, or its cookie missing): oidc-provider's
 * error, a 4xx, as a page for the person in the browser; anything else is the gateway's to answer.
 */
export function interactionFailed(res: Response, err: unknown, next: NextFunction): void {
  const e = err as { statusCode?: unknown; error?: unknown; error_description?: unknown } | null;
  if (typeof e?.statusCode === "number" && e.statusCode >= 400 && e.statusCode < 500 && typeof e.error === "string") {
    res.status(e.statusCode).setHeader("Cache-Control", "no-store");
    res
      .type("html")
      .send(
        page(
          "Sign-in failed",
          `<p>${escapeHtml(typeof e.error_description === "string" ? e.error_description : e.error)}</p>` +
            "<p>Start again from the application.</p>",
        ),
      );
    return;
  }
  next(err);
}

export function signInPage(uid: string, appName: string, impossible: boolean, error?: string): string {
  if (impossible)
    return page("Sign in", "<p>Sign-in needs https (or http://localhost): this address cannot keep a session.</p>");
  return page(
    "Sign in to Verdict",
    `${appName ? `<p>${escapeHtml(appName)} asks to act for you.</p>` : ""}` +
      `${error ? `<p role="alert">${escapeHtml(error)}</p>` : ""}` +
      `<form method="post" action="/auth/oauth/interaction/${escapeHtml(uid)}/login">` +
      `<label>Email <input name="email" type="email" autocomplete="username" required></label>` +
      `<label>Password <input name="password" type="password" autocomplete="current-password" required></label>` +
      `<button type="submit">Sign in</button></form>`,
  );
}

export function mfaEnrolmentPage(): string {
  return page(
    "Multi-factor authentication required",
    "<p>Your organization requires multi-factor authentication: enrol a second factor in Verdict " +
      "(POST /auth/mfa/totp/enrolment), then try again.</p>",
  );
}

export function totpPage(uid: string, mfaToken: string, error?: string): string {
  return page(
    "Second factor",
    `${error ? `<p role="alert">${escapeHtml(error)}</p>` : ""}` +
      `<form method="post" action="/auth/oauth/interaction/${escapeHtml(uid)}/totp">` +
      `<input type="hidden" name="mfa_token" value="${escapeHtml(mfaToken)}">` +
      `<label>Code from your authenticator app, or a recovery code <input name="code" autocomplete="one-time-code" required></label>` +
      `<button type="submit">Continue</button></form>`,
  );
}

export function consentPage(
  uid: string,
  appName: string,
  p: Principal,
  granted: string[],
  refused: string[],
  csrf: string,
): string {
  const list = (scopes: string[]) =>
    `<ul>${scopes.map((s) => `<li><code>${escapeHtml(s)}</code>: ${escapeHtml(SCOPE_TEXT[s] ?? s)}</li>`).join("")}</ul>`;
  return page(
    `Allow ${appName}?`,
    `<p>Signed in as ${escapeHtml(p.session!.email)} in ${escapeHtml(p.organizationName)}.</p>` +
      (granted.length ? `<p>${escapeHtml(appName)} will be able to:</p>${list(granted)}` : "") +
      (refused.length ? `<p>Not granted (beyond your role):</p>${list(refused)}` : "") +
      `<form method="post" action="/auth/oauth/interaction/${escapeHtml(uid)}/confirm">` +
      `<input type="hidden" name="csrf_token" value="${escapeHtml(csrf)}">` +
      `<button type="submit" name="decision" value="allow"${granted.length ? "" : " disabled"}>Allow</button></form>` +
      `<form method="post" action="/auth/oauth/interaction/${escapeHtml(uid)}/abort"><button type="submit">Deny</button></form>`,
  );
}
