// The authorization server's HTTP side, on the gateway's express app, in the order a request
// meets it: the address throttle, the JSON body adapter for the token and revocation endpoints,
// RFC 8414 metadata, the pages of the interaction (interaction.ts), and oidc-provider at /auth
// (authorize, token, revoke) for everything else under /auth/oauth.
// Not generated from identity.proto (docs/contracts.md): OAuth 2.0's endpoints are RFC 6749's,
// 7009's and 8414's, form-encoded with OAuth's own error bodies, served by oidc-provider; the
// identity service only keeps the artifacts (OAuthArtifact*), which no REST route exposes.
import express, { type Express, type Request, type RequestHandler, type Response, type NextFunction } from "express";
import type { Logger } from "@verdict/kit";
import type { Clients } from "../clients.js";
import type { Authenticator } from "../http/auth.js";
import { bodyLimit } from "../http/bodyLimits.js";
import { interactionHandlers } from "./interaction.js";
import { oauthServers } from "./servers.js";
import { tokenJsonBody } from "./tokenJsonBody.js";

export interface OAuthRoutesOptions {
  /** The public origin; unset: the request's own, on loopback addresses only (loopbackOrigin). */
  origin?: string;
  clients: Clients;
  authenticator: Authenticator;
  logger: Logger;
}

export function mountOAuthServer(app: Express, throttle: RequestHandler, opts: OAuthRoutesOptions): void {
  const servers = oauthServers(opts);
  const interaction = interactionHandlers({ servers, clients: opts.clients, authenticator: opts.authenticator });
  // The auth class's limit (bodyLimits.ts); oidc-provider reads its own form bodies within it too.
  const limit = bodyLimit("auth", Number.MAX_SAFE_INTEGER);
  const form = express.urlencoded({ extended: false, limit });
  const metadata = (req: Request, res: Response, next: NextFunction) => {
    req.url = "/.well-known/openid-configuration";
    req.originalUrl = "/auth/.well-known/openid-configuration";
    void servers.handOver(req, res, next);
  };

  // Every request to the authorization server counts against the caller's address (guessing
  // client secrets, codes or tokens is throttled like guessing keys).
  app.use(["/auth/oauth", "/.well-known/oauth-authorization-server"], throttle);
  app.use(tokenJsonBody(limit));
  // RFC 8414: at the root (as the contract names it) and with the issuer's path appended.
  app.get("/.well-known/oauth-authorization-server", metadata);
  app.get("/.well-known/oauth-authorization-server/auth", metadata);
  app.get("/auth/oauth/interaction/:uid", interaction.page);
  app.post("/auth/oauth/interaction/:uid/login", form, interaction.login);
  app.post("/auth/oauth/interaction/:uid/totp", form, interaction.totp);
  app.post("/auth/oauth/interaction/:uid/confirm", form, interaction.confirm);
  app.post("/auth/oauth/interaction/:uid/abort", form, interaction.abort);
  // Everything else under /auth/oauth is oidc-provider's (authorize, token, revoke, jwks).
  app.use("/auth", (req, res, next) => {
    if (!req.path.startsWith("/oauth/") && !req.path.startsWith("/.well-known/")) return next();
    void servers.handOver(req, res, next);
  });
}
