// The pages of an authorization's interaction (oidc-provider's prompts): sign-in with the
// existing session (or a sign-in form that sets it, with TOTP as the second step), then consent to
// the scopes within the person's role, recorded as an audit event.
import type { Request, RequestHandler, Response } from "express";
import { API_SCOPES, AppError } from "@verdict/kit";
import type { Clients } from "../clients.js";
import { hasScope, type Authenticator, type Principal } from "../http/auth.js";
import { csrfTokenFor, cookieMode, sessionTokenFrom, setSessionCookie } from "../http/session.js";
import { consentPage, interactionFailed, mfaEnrolmentPage, signInPage, totpPage } from "./pages.js";
import { page } from "./provider.js";
import type { OAuthServers } from "./servers.js";

export interface InteractionDeps {
  servers: OAuthServers;
  clients: Clients;
  authenticator: Authenticator;
}

export interface InteractionHandlers {
  /** GET /auth/oauth/interaction/:uid: the sign-in form, or the consent page. */
  page: RequestHandler;
  /** POST …/login: email and password (the sign-in form). */
  login: RequestHandler;
  /** POST …/totp: the second step of a sign-in with TOTP (or a recovery code), as POST /auth/mfa/totp. */
  totp: RequestHandler;
  /** POST …/confirm: consent given (the scopes within the person's role). */
  confirm: RequestHandler;
  /** POST …/abort: consent refused. */
  abort: RequestHandler;
}

export function interactionHandlers({ servers, clients, authenticator }: InteractionDeps): InteractionHandlers {
  /** Ends the interaction (access_denied) when the application belongs to another organization. */
  const deniedElsewhere = async (req: Request, res: Response, principal: Principal, organizationId: string) => {
    if (principal.organizationId === organizationId) return false;
    await servers.finishDenied(
      req,
      res,
      "This application belongs to another organization than the one you are signed in to",
    );
    return true;
  };
  return {
    page: async (req, res, next) => {
      try {
        res.setHeader("Cache-Control", "no-store");
        const { provider } = await servers.serverFor(req);
        const details = await provider.interactionDetails(req, res);
        const client = await clients.identity.getOAuthClientRegistration({ client_id: details.params.client_id ?? "" });
        const principal = await signedIn(req, authenticator);
        const appName = client.oauth_client!.name;
        // The consent form's answer redirects to the application: let the form go there.
        const targets = [...new Set(client.oauth_client!.redirect_uris.map((u) => new URL(u).origin))].join(" ");
        res.setHeader(
          "Content-Security-Policy",
          `default-src 'none'; style-src 'unsafe-inline'; form-action 'self' ${targets}; frame-ancestors 'none'; base-uri 'none'`,
        );
        if (!principal) {
          res.type("html").send(signInPage(details.uid, appName, cookieMode(req) === "none"));
          return;
        }
        if (principal.session!.mfaEnrolmentRequired) {
          res.status(403).type("html").send(mfaEnrolmentPage());
          return;
        }
        if (await deniedElsewhere(req, res, principal, client.organization_id)) return;
        const { granted, refused } = scopesWithin(principal, details.params.scope, client.oauth_client!.scopes);
        res
          .type("html")
          .send(consentPage(details.uid, appName, principal, granted, refused, csrfTokenFor(sessionTokenFrom(req)!)));
      } catch (err) {
        interactionFailed(res, err, next);
      }
    },
    login: async (req, res, next) => {
      try {
        const { provider } = await servers.serverFor(req);
        const details = await provider.interactionDetails(req, res);
        const body = req.body as Record<string, unknown>;
        const email = typeof body.email === "string" ? body.email : "";
        const password = typeof body.password === "string" ? body.password : "";
        try {
          const out = await clients.identity.login({
            email,
            password,
            client_ip: req.ip ?? "",
            user_agent: req.get("user-agent") ?? "",
            organization_id: "",
          });
          if (out.mfa_required) {
            if (!out.methods.includes("totp")) {
              res
                .status(401)
                .type("html")
                .send(
                  signInPage(
                    details.uid,
                    "",
                    false,
                    "Your account's second factor is a passkey: sign in to Verdict first, then try again",
                  ),
                );
              return;
            }
            res.type("html").send(totpPage(details.uid, out.mfa_token));
            return;
          }
          setSessionCookie(req, res, out.session_token, out.session!.expires_at);
          res.redirect(303, `/auth/oauth/interaction/${details.uid}`);
        } catch (err) {
          if (err instanceof AppError && err.httpStatus < 500) {
            res
              .status(err.httpStatus)
              .type("html")
              .send(signInPage(details.uid, "", false, err.message));
            return;
          }
          throw err;
        }
      } catch (err) {
        interactionFailed(res, err, next);
      }
    },
    totp: async (req, res, next) => {
      try {
        const { provider } = await servers.serverFor(req);
        const details = await provider.interactionDetails(req, res);
        const body = req.body as Record<string, unknown>;
        const mfaToken = typeof body.mfa_token === "string" ? body.mfa_token : "";
        try {
          const out = await clients.identity.completeTotpLogin({
            mfa_token: mfaToken,
            code: typeof body.code === "string" ? body.code.trim() : "",
            client_ip: req.ip ?? "",
            user_agent: req.get("user-agent") ?? "",
          });
          setSessionCookie(req, res, out.session_token, out.session!.expires_at);
          res.redirect(303, `/auth/oauth/interaction/${details.uid}`);
        } catch (err) {
          if (err instanceof AppError && err.httpStatus < 500) {
            res
              .status(err.httpStatus)
              .type("html")
              .send(totpPage(details.uid, mfaToken, err.message));
            return;
          }
          throw err;
        }
      } catch (err) {
        interactionFailed(res, err, next);
      }
    },
    confirm: async (req, res, next) => {
      try {
        const { provider, resource } = await servers.serverFor(req);
        const details = await provider.interactionDetails(req, res);
        const token = sessionTokenFrom(req);
        const principal = await signedIn(req, authenticator);
        const body = req.body as Record<string, unknown>;
        if (!principal || !token || body.csrf_token !== csrfTokenFor(token)) {
          res.status(403).type("html").send(page("Not allowed", "<p>Sign in again and retry.</p>"));
          return;
        }
        if (principal.session!.mfaEnrolmentRequired) {
          res.status(403).type("html").send(mfaEnrolmentPage());
          return;
        }
        const clientId = details.params.client_id ?? "";
        const client = await clients.identity.getOAuthClientRegistration({ client_id: clientId });
        if (await deniedElsewhere(req, res, principal, client.organization_id)) return;
        const { granted } = scopesWithin(principal, details.params.scope, client.oauth_client!.scopes);
        if (!granted.length) {
          await servers.finishDenied(req, res, "None of the requested scopes is within your role");
          return;
        }
        const accountId = `${principal.organizationId}.${principal.session!.userId}`;
        const grant = new provider.Grant({ accountId, clientId });
        grant.addResourceScope(resource, granted.join(" "));
        // Asked for beyond the member's role: refused, and the application is told so by the token's scope.
        const refused = allRequested(details.params.scope).filter((s) => !granted.includes(s));
        if (refused.length) grant.rejectResourceScope(resource, refused.join(" "));
        const oidcScopes = (details.params.scope ?? "")
          .split(" ")
          .filter((s) => s === "openid" || s === "offline_access");
        for (const s of oidcScopes) grant.addOIDCScope(s);
        const grantId = await grant.save();
        await clients.identity.recordOAuthEvent({
          organization_id: principal.organizationId,
          type: "oauth.granted",
          actor: { type: "user", id: principal.session!.userId, ip: req.ip ?? "" },
          client_id: clientId,
          grant_id: grantId,
          scopes: granted,
          reason: "",
        });
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId }, consent: { grantId } },
          {
            mergeWithLastSubmission: false,
          },
        );
      } catch (err) {
        interactionFailed(res, err, next);
      }
    },
    abort: async (req, res, next) => {
      try {
        await servers.finishDenied(req, res, "The person declined");
      } catch (err) {
        interactionFailed(res, err, next);
      }
    },
  };
}

async function signedIn(req: Request, authenticator: Authenticator): Promise<Principal | undefined> {
  const token = sessionTokenFrom(req);
  if (!token) return undefined;
  try {
    return await authenticator.authenticateSession(token, req.ip ?? "");
  } catch (err) {
    if (err instanceof AppError && err.httpStatus < 500) return undefined;
    throw err;
  }
}

function allRequested(scope: string | undefined): string[] {
  const api = new Set<string>(API_SCOPES);
  return [...new Set((scope ?? "").split(" ").filter((s) => api.has(s)))];
}

/** The API scopes asked for that the client's registration allows (it may ask for no more). */
function requestedScopes(scope: string | undefined, clientScopes: string[]): string[] {
  return allRequested(scope).filter((s) => clientScopes.includes(s) || clientScopes.includes("admin"));
}

/** The requested scopes within the person's role (granted) and beyond it (refused). */
function scopesWithin(principal: Principal, scope: string | undefined, clientScopes: string[]) {
  const requested = requestedScopes(scope, clientScopes);
  return {
    granted: requested.filter((s) => hasScope(principal, s)),
    refused: requested.filter((s) => !hasScope(principal, s)),
  };
}
