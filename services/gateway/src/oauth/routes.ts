// The authorization server's HTTP side, on the gateway's express app: oidc-provider at /auth
// (authorize, token, revoke), RFC 8414 metadata, the JSON body adapter for the token and
// revocation endpoints (the spec shows JSON; oidc-provider reads form bodies), and the pages of
// the interaction: sign-in with the existing session (or a sign-in form that sets it) and consent.
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from "express";
import { API_SCOPES, AppError, type Logger } from "@verdict/kit";
import type { Clients } from "../clients.js";
import { hasScope, type Authenticator, type Principal } from "../http/auth.js";
import { bodyLimit } from "../http/bodyLimits.js";
import { cookieMode, csrfTokenFor, sessionTokenFrom, setSessionCookie } from "../http/session.js";
import { createOAuthServer, escapeHtml, page, type OAuthServer } from "./provider.js";

export interface OAuthRoutesOptions {
  /** The public origin; unset: the request's own, on loopback addresses only (loopbackOrigin). */
  origin?: string;
  clients: Clients;
  authenticator: Authenticator;
  logger: Logger;
}

const SCOPE_TEXT: Record<string, string> = {
  "read:evaluations": "read evaluations",
  "write:evaluations": "run and delete evaluations",
  "read:policies": "read policies and compliance reports",
  "write:policies": "create, change and delete policies",
  "read:org": "read the organization, its repositories and webhooks",
  "write:org": "change the organization, its repositories and webhooks",
  admin: "administer the organization (keys, members, everything)",
};

const TOKEN_PATHS = new Set(["/auth/oauth/token", "/auth/oauth/revoke"]);

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The issuer's origin when no public URL is configured: the request's own, but only when its Host
 * names a loopback address (localhost, 127.0.0.1, [::1]) and the port the request arrived on
 * (none for the protocol's default port). Undefined for any other Host: the request could come
 * from anyone, and its Host would otherwise become the issuer other clients are told to trust.
 */
export function loopbackOrigin(
  protocol: string,
  host: string | undefined,
  localPort: number | undefined,
): string | undefined {
  if (!host || !localPort) return undefined;
  const m = /^(localhost|127\.0\.0\.1|\[::1\])(?::(\d{1,5}))?$/i.exec(host);
  if (!m || !LOOPBACK_NAMES.has(m[1]!.toLowerCase())) return undefined;
  const defaultPort = protocol === "https" ? 443 : 80;
  const port = m[2] === undefined ? defaultPort : Number(m[2]);
  if (port !== localPort || (m[2] !== undefined && String(port) !== m[2])) return undefined;
  return `${protocol}://${m[1]!.toLowerCase()}${m[2] === undefined ? "" : `:${port}`}`;
}

export function mountOAuthServer(app: Express, throttle: RequestHandler, opts: OAuthRoutesOptions): void {
  const { clients, authenticator } = opts;
  // Built on first use: the issuer needs the public origin, the cookie key comes from identity.
  // Without a configured origin, one server per loopback origin the request names (at most the
  // three loopback names of the port it arrived on): a Host header is never taken as the issuer
  // for anyone else, and any other Host is refused.
  const servers = new Map<string, Promise<OAuthServer>>();
  const serverFor = (req: Request): Promise<OAuthServer> => {
    const origin = opts.origin ?? loopbackOrigin(req.protocol, req.get("host"), req.socket.localPort);
    if (!origin)
      return Promise.reject(
        new AppError(
          "forbidden",
          "AUTH_HOST_NOT_ALLOWED",
          "The authorization server answers only on its public URL: set VERDICT_PUBLIC_URL (without it, only http://localhost, 127.0.0.1 or [::1] on the port it listens on)",
        ),
      );
    let starting = servers.get(origin);
    if (!starting) {
      starting = (async () => {
        const { secret } = await clients.identity.getOAuthServerSecret({});
        const server = createOAuthServer({ clients, logger: opts.logger, origin, cookieSecret: Buffer.from(secret) });
        onGrantRevoked(server);
        return server;
      })();
      servers.set(origin, starting);
      starting.catch(() => servers.delete(origin));
    }
    return starting;
  };
  const handOver = async (req: Request, res: Response, next: NextFunction) => {
    try {
      (await serverFor(req)).provider.callback()(req, res);
    } catch (err) {
      next(err);
    }
  };
  // The auth class's limit (bodyLimits.ts); oidc-provider reads its own form bodies within it too.
  const limit = bodyLimit("auth", Number.MAX_SAFE_INTEGER);
  const form = express.urlencoded({ extended: false, limit });
  const json = express.json({ limit, strict: true });

  // Every request to the authorization server counts against the caller's address (guessing
  // client secrets, codes or tokens is throttled like guessing keys).
  app.use(["/auth/oauth", "/.well-known/oauth-authorization-server"], throttle);

  // Token and revocation requests as JSON: read, checked to hold only string values, and handed
  // on as the form body they stand for.
  app.use((req: Request, res: Response, next: NextFunction) => {
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
  });

  const metadata = (req: Request, res: Response, next: NextFunction) => {
    req.url = "/.well-known/openid-configuration";
    req.originalUrl = "/auth/.well-known/openid-configuration";
    void handOver(req, res, next);
  };
  // RFC 8414: at the root (as the contract names it) and with the issuer's path appended.
  app.get("/.well-known/oauth-authorization-server", metadata);
  app.get("/.well-known/oauth-authorization-server/auth", metadata);

  app.get("/auth/oauth/interaction/:uid", async (req, res, next) => {
    try {
      res.setHeader("Cache-Control", "no-store");
      const { provider } = await serverFor(req);
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
      if (principal.organizationId !== client.organization_id) {
        await finishDenied(
          req,
          res,
          "This application belongs to another organization than the one you are signed in to",
        );
        return;
      }
      const requested = requestedScopes(details.params.scope, client.oauth_client!.scopes);
      const granted = requested.filter((s) => hasScope(principal, s));
      const refused = requested.filter((s) => !hasScope(principal, s));
      res
        .type("html")
        .send(consentPage(details.uid, appName, principal, granted, refused, csrfTokenFor(sessionTokenFrom(req)!)));
    } catch (err) {
      interactionFailed(res, err, next);
    }
  });

  app.post("/auth/oauth/interaction/:uid/login", form, async (req, res, next) => {
    try {
      const { provider } = await serverFor(req);
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
  });

  // The second step of a sign-in with TOTP (or a recovery code), as POST /auth/mfa/totp.
  app.post("/auth/oauth/interaction/:uid/totp", form, async (req, res, next) => {
    try {
      const { provider } = await serverFor(req);
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
  });

  app.post("/auth/oauth/interaction/:uid/confirm", form, async (req, res, next) => {
    try {
      const { provider, resource } = await serverFor(req);
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
      if (principal.organizationId !== client.organization_id) {
        await finishDenied(
          req,
          res,
          "This application belongs to another organization than the one you are signed in to",
        );
        return;
      }
      const requested = requestedScopes(details.params.scope, client.oauth_client!.scopes);
      const granted = requested.filter((s) => hasScope(principal, s));
      if (!granted.length) {
        await finishDenied(req, res, "None of the requested scopes is within your role");
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
  });

  app.post("/auth/oauth/interaction/:uid/abort", form, async (req, res, next) => {
    try {
      await finishDenied(req, res, "The person declined");
    } catch (err) {
      interactionFailed(res, err, next);
    }
  });

  type Ctx = {
    oidc?: {
      route?: string;
      params?: Record<string, unknown>;
      client?: { clientId: string; metadata(): Record<string, unknown> };
    };
  };
  const record = (cmd: Parameters<Clients["identity"]["recordOAuthEvent"]>[0]) =>
    clients.identity
      .recordOAuthEvent(cmd)
      .catch((err: unknown) => opts.logger.error({ err }, "could not record the OAuth revocation"));
  const onGrantRevoked = (server: OAuthServer) => {
    // Reuse of a rotated refresh token, a replayed code, or revocation: the grant (the token
    // family) is gone.
    server.provider.on("grant.revoked", (ctx: Ctx, grantId: string) => {
      const client = ctx.oidc?.client;
      if (!client) return;
      const reason =
        ctx.oidc?.route !== "token"
          ? "revoked"
          : ctx.oidc.params?.grant_type === "authorization_code"
            ? "code_replayed"
            : "refresh_token_reused";
      void record({
        organization_id: String(client.metadata().organization_id ?? ""),
        type: "oauth.grant_revoked",
        actor: { type: "system", id: client.clientId, ip: "" },
        client_id: client.clientId,
        grant_id: grantId,
        scopes: [],
        reason,
      });
    });
    // An access token revoked on its own (RFC 7009).
    server.provider.on(
      "access_token.destroyed",
      (token: { clientId?: string; grantId?: string; accountId?: string; scope?: string }) => {
        const organizationId = (token.accountId ?? "").split(".")[0];
        if (!organizationId || !token.clientId) return;
        void record({
          organization_id: organizationId,
          type: "oauth.token_revoked",
          actor: { type: "system", id: token.clientId, ip: "" },
          client_id: token.clientId,
          grant_id: token.grantId ?? "",
          scopes: (token.scope ?? "").split(" ").filter(Boolean),
          reason: "revoked",
        });
      },
    );
  };

  // Everything else under /auth/oauth is oidc-provider's (authorize, token, revoke, jwks).
  app.use("/auth", (req, res, next) => {
    if (!req.path.startsWith("/oauth/") && !req.path.startsWith("/.well-known/")) return next();
    void handOver(req, res, next);
  });

  async function finishDenied(req: Request, res: Response, description: string) {
    const { provider } = await serverFor(req);
    await provider.interactionFinished(
      req,
      res,
      { error: "access_denied", error_description: description },
      { mergeWithLastSubmission: false },
    );
  }
}

/**
 * An interaction that cannot go on (expired, unknown, or its cookie missing): oidc-provider's
 * error, a 4xx, as a page for the person in the browser; anything else is the gateway's to answer.
 */
function interactionFailed(res: Response, err: unknown, next: NextFunction): void {
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

function oauthError(res: Response, status: number, error: string, description: string): void {
  res.status(status).setHeader("Cache-Control", "no-store");
  res.json({ error, error_description: description });
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

function signInPage(uid: string, appName: string, impossible: boolean, error?: string): string {
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

function mfaEnrolmentPage(): string {
  return page(
    "Multi-factor authentication required",
    "<p>Your organization requires multi-factor authentication: enrol a second factor in Verdict " +
      "(POST /auth/mfa/totp/enrolment), then try again.</p>",
  );
}

function totpPage(uid: string, mfaToken: string, error?: string): string {
  return page(
    "Second factor",
    `${error ? `<p role="alert">${escapeHtml(error)}</p>` : ""}` +
      `<form method="post" action="/auth/oauth/interaction/${escapeHtml(uid)}/totp">` +
      `<input type="hidden" name="mfa_token" value="${escapeHtml(mfaToken)}">` +
      `<label>Code from your authenticator app, or a recovery code <input name="code" autocomplete="one-time-code" required></label>` +
      `<button type="submit">Continue</button></form>`,
  );
}

function consentPage(
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
