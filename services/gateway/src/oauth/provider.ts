// The OAuth 2.0 authorization server: oidc-provider (certified), configured for Verdict.
// Authorization code with PKCE (S256; required for public clients), refresh tokens rotated on
// every use (a reused one revokes its whole grant), revocation (RFC 7009), metadata (RFC 8414).
// Access and refresh tokens are opaque `vdt_oat_…` / `vdt_ort_…` with the API keys' checksum.
import { createHash, timingSafeEqual } from "node:crypto";
import Provider, { errors as oidcErrors } from "oidc-provider";
import { API_SCOPES, AppError, mintChecksummedToken, type Logger } from "@verdict/kit";
import type { Clients } from "../clients.js";
import { adapterFor } from "./adapter.js";

export const ACCESS_TOKEN_PREFIX = "vdt_oat_";
export const REFRESH_TOKEN_PREFIX = "vdt_ort_";

export interface OAuthServerOptions {
  clients: Clients;
  logger: Logger;
  /** The public origin (`https://verdict.example.com`): the issuer is `<origin>/auth`. */
  origin: string;
  /** Signs the server's cookies; the same on every replica. */
  cookieSecret: Buffer;
}

export interface OAuthServer {
  provider: Provider;
  issuer: string;
  /** The resource the access tokens are for: the API. */
  resource: string;
}

export function createOAuthServer(opts: OAuthServerOptions): OAuthServer {
  const issuer = `${opts.origin}/auth`;
  const resource = `${opts.origin}/v1`;
  const { clients } = opts;
  const provider = new Provider(issuer, {
    adapter: adapterFor(clients),
    async findAccount(_ctx: unknown, accountId: string) {
      try {
        const a = await clients.identity.getOAuthAccount({ account_id: accountId });
        return { accountId, claims: async () => ({ sub: accountId, email: a.email, name: a.name }) };
      } catch (err) {
        // Removed from the organization (or never a member): no account, so no tokens.
        if (err instanceof AppError && err.kind === "not_found") return undefined;
        throw err;
      }
    },
    cookies: {
      keys: [opts.cookieSecret.toString("base64url")],
      long: { signed: true, httpOnly: true, sameSite: "lax" },
      short: { signed: true, httpOnly: true, sameSite: "lax" },
    },
    extraClientMetadata: { properties: ["organization_id"] },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      userinfo: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, indicator: string) => {
          if (indicator !== resource) throw new oidcErrors.InvalidTarget!();
          return { scope: API_SCOPES.join(" "), accessTokenFormat: "opaque", accessTokenTTL: 3600 };
        },
      },
    },
    // The API's scopes belong to the resource server (below), not to OpenID Connect.
    scopes: ["openid", "offline_access"],
    claims: { openid: ["sub"], email: ["email"], profile: ["name"] },
    responseTypes: ["code"],
    clientDefaults: {
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_post",
    },
    // Every code grant gets a refresh token, rotated on each use.
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(t: string): boolean }) =>
      client.grantTypeAllowed("refresh_token"),
    rotateRefreshToken: true,
    expiresWithSession: async () => false,
    // Every authorization goes through Verdict's own interaction, which checks the Verdict
    // session now: the provider's own session (its cookie) never stands in for it, so signing
    // out of Verdict, or another person signing in on the same browser, is always seen.
    // (Only the grant the interaction that just ended made is loaded, never one remembered in
    // the provider's session.)
    loadExistingGrant: async (ctx: {
      oidc: {
        result?: { consent?: { grantId?: string } };
        provider: { Grant: { find(id: string): Promise<unknown> } };
      };
    }) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    ttl: {
      AccessToken: 3600,
      AuthorizationCode: 60,
      RefreshToken: 30 * 86_400,
      Grant: 30 * 86_400,
      Interaction: 600,
      Session: 3600,
      IdToken: 3600,
    },
    routes: {
      authorization: "/oauth/authorize",
      token: "/oauth/token",
      revocation: "/oauth/revoke",
      jwks: "/oauth/jwks",
      end_session: "/oauth/logout",
      pushed_authorization_request: "/oauth/par",
      code_verification: "/oauth/device",
      device_authorization: "/oauth/device/auth",
      introspection: "/oauth/introspect",
      registration: "/oauth/register",
      userinfo: "/oauth/userinfo",
      challenge: "/oauth/challenge",
      backchannel_authentication: "/oauth/backchannel",
    },
    interactions: {
      url: (_ctx: unknown, interaction: { uid: string }) => `/auth/oauth/interaction/${interaction.uid}`,
    },
    renderError: async (ctx: { type: string; body: string }, out: { error: string; error_description?: string }) => {
      ctx.type = "html";
      ctx.body = page("Sign-in failed", `<p>${escapeHtml(out.error)}: ${escapeHtml(out.error_description ?? "")}</p>`);
    },
  });
  provider.proxy = true;

  // Opaque tokens in Verdict's checksummed shape (the value is the token's id in storage).
  for (const [model, prefix] of [
    [provider.AccessToken, ACCESS_TOKEN_PREFIX],
    [provider.RefreshToken, REFRESH_TOKEN_PREFIX],
  ] as const) {
    const original = model.prototype.generateTokenId;
    model.prototype.generateTokenId = function (this: unknown) {
      original.call(this); // sets the token's format (opaque)
      return mintChecksummedToken(prefix);
    };
  }
  // Only the secret's SHA-256 is stored: compare the presented secret's hash with it.
  provider.Client.prototype.compareClientSecret = async function (this: { clientSecret: string }, actual: string) {
    const presented = createHash("sha256").update(actual, "utf8").digest();
    const stored = Buffer.from(this.clientSecret, "hex");
    return presented.length === stored.length && timingSafeEqual(presented, stored);
  };

  provider.on("server_error", (_ctx: unknown, err: Error) => opts.logger.error({ err }, "OAuth server error"));
  return { provider, issuer, resource };
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** A minimal server-rendered page (no script: the CSP of helmet's defaults holds). */
export function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} · Verdict</title></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}
