// Enterprise SSO over HTTP: the organization's connection (admins), the operator's domain
// verification, and the browser's way through the IdP (OIDC authorize/callback/token, SAML
// login/ACS/metadata). Transport only: identity does the protocol work.
// Written by hand rather than generated from identity.proto (docs/contracts.md; removing the
// connection is generated): the connection's answer and request carry the service provider's
// addresses (`sp`, the redirect URI, the SAML ACS and metadata URLs with the organization in their
// query), built from the public origin only the gateway knows; the operator's domain
// verification takes the organization from the path; and the browser legs are redirects, form
// posts from the IdP, SAML XML and the SSO cookie that binds a sign-in to its browser.
import express, { type Express, type Request, type RequestHandler } from "express";
import type { identityV1 } from "@verdict/proto";
import { AppError, errors } from "@verdict/kit";
import type { Clients } from "../clients.js";
import { actorOf } from "../http/auth.js";
import { route } from "../http/route.js";
import { setSessionCookie, cookieMode } from "../http/session.js";
import { bodyLimit } from "../http/bodyLimits.js";
import { ssoBindingFor, ssoBindingFrom } from "../http/ssoBinding.js";
import { escapeHtml } from "../oauth/provider.js";
import {
  OidcTokenSchema,
  PutSsoConnectionSchema,
  SsoConnectionSchema,
  SsoEmailQuery,
  SsoSignedInSchema,
  VerifyDomainParams,
} from "../http/ssoSchemas.js";
import { sessionJson } from "./signin.js";
import { publicOrigin } from "../http/restTypes.js";

/** The public addresses the IdP sends the browser back to, from the site's origin. */
export function ssoUrls(origin: string): identityV1.SsoUrls {
  return {
    oidc_redirect_uri: `${origin}/auth/oidc/callback`,
    saml_acs_url: `${origin}/auth/saml/acs`,
    saml_metadata_url: `${origin}/auth/saml/metadata`,
  };
}

function connectionJson(c: identityV1.SsoConnection, organizationId: string, origin: string) {
  const urls = ssoUrls(origin);
  return {
    type: c.type as "oidc" | "saml",
    issuer: c.issuer || null,
    client_id: c.client_id || null,
    client_secret_set: c.client_secret_set,
    idp_entity_id: c.idp_entity_id || null,
    idp_sso_url: c.idp_sso_url || null,
    idp_metadata_url: c.idp_metadata_url || null,
    idp_certificates: c.idp_certificates,
    domains: c.domains.map((d) => ({ ...d, verified_at: d.verified_at || null })),
    default_role: c.default_role as "admin" | "member" | "viewer",
    enforce: c.enforce,
    sp: {
      oidc_redirect_uri: urls.oidc_redirect_uri,
      saml_entity_id: `${urls.saml_metadata_url}?org=${encodeURIComponent(organizationId)}`,
      saml_acs_url: urls.saml_acs_url,
      saml_metadata_url: `${urls.saml_metadata_url}?org=${encodeURIComponent(organizationId)}`,
    },
    created_at: c.created_at,
    updated_at: c.updated_at,
  };
}

const ssoErrors = {
  403: "PLAN_FEATURE_UNAVAILABLE: SSO needs the Team, Business or Enterprise plan",
  422: "A field that breaks a rule, named in errors[].field (issuer, client_secret, idp_certificate, domains[i], default_role, …)",
};

export const ssoRoutes = [
  route({
    method: "get",
    path: "/v1/organization/sso",
    operationId: "getSsoConnection",
    summary: "The organization's SSO connection (the client secret is never shown)",
    tag: "SSO",
    access: { kind: "scope", scope: "admin" },
    rateClass: "reads",
    errors: [404],
    responses: { 200: { description: "The connection", schema: SsoConnectionSchema } },
    handler: async ({ principal, clients, apiBaseUrl }) => {
      const res = await clients.identity.getSsoConnection({ organization_id: principal!.organizationId });
      return {
        status: 200,
        body: connectionJson(res.connection!, principal!.organizationId, publicOrigin(apiBaseUrl)),
      };
    },
  }),
  route({
    method: "put",
    path: "/v1/organization/sso",
    operationId: "putSsoConnection",
    summary: "Create or replace the organization's SSO connection (OIDC or SAML 2.0) and its email domains",
    tag: "SSO",
    access: { kind: "scope", scope: "admin" },
    rateClass: "writes",
    body: PutSsoConnectionSchema,
    errors: [403, 422],
    errorNotes: ssoErrors,
    responses: { 200: { description: "The connection", schema: SsoConnectionSchema } },
    handler: async ({ body, principal, clients, clientIp, apiBaseUrl }) => {
      const res = await clients.identity.putSsoConnection({
        organization_id: principal!.organizationId,
        actor: actorOf(principal!, clientIp),
        user_id: principal!.session?.userId ?? "",
        type: body.type,
        issuer: body.issuer ?? "",
        client_id: body.client_id ?? "",
        client_secret: body.client_secret ?? "",
        idp_metadata_xml: body.idp_metadata_xml ?? "",
        idp_metadata_url: body.idp_metadata_url ?? "",
        idp_entity_id: body.idp_entity_id ?? "",
        idp_sso_url: body.idp_sso_url ?? "",
        idp_certificate: body.idp_certificate ?? "",
        domains: body.domains,
        default_role: body.default_role,
        enforce: body.enforce,
        urls: ssoUrls(publicOrigin(apiBaseUrl)),
      });
      return {
        status: 200,
        body: connectionJson(res.connection!, principal!.organizationId, publicOrigin(apiBaseUrl)),
      };
    },
  }),
  route({
    method: "post",
    path: "/v1/organizations/:organization_id/sso/domains/:domain/verify",
    operationId: "verifySsoDomain",
    summary: "Instance operators: mark a claimed email domain as verified (after checking its DNS TXT record)",
    tag: "SSO",
    access: { kind: "operator" },
    params: VerifyDomainParams,
    errors: [404, 409],
    errorNotes: { 409: "SSO_DOMAIN_TAKEN: the domain is verified for another organization" },
    responses: { 200: { description: "The connection", schema: SsoConnectionSchema } },
    handler: async ({ params, principal, clients, clientIp, apiBaseUrl }) => {
      const res = await clients.identity.verifySsoDomain({
        organization_id: params.organization_id,
        domain: params.domain,
        actor: actorOf(principal!, clientIp),
      });
      return { status: 200, body: connectionJson(res.connection!, params.organization_id, publicOrigin(apiBaseUrl)) };
    },
  }),
  route({
    method: "get",
    path: "/auth/oidc/authorize",
    operationId: "startOidcSignIn",
    summary:
      "Start SSO with OpenID Connect: redirects to the IdP of the organization the email's verified domain belongs to",
    tag: "SSO",
    access: { kind: "public" },
    query: SsoEmailQuery,
    errors: [422, 503],
    errorNotes: { 422: "errors[0].field = email: no verified SSO domain, or the domain uses SAML" },
    responses: { 302: { description: "To the identity provider (sets the SSO cookie the sign-in is bound to)" } },
    handler: async ({ query, clients, apiBaseUrl, cookieHeader, cookieMode }) => {
      const { binding, setCookies } = ssoBindingFor(cookieHeader, cookieMode);
      const res = await clients.identity.startSsoLogin({
        email: query.email,
        protocol: "oidc",
        urls: ssoUrls(publicOrigin(apiBaseUrl)),
        browser_binding: binding,
      });
      return { status: 302, headers: { Location: res.redirect_url }, setCookies };
    },
  }),
  route({
    method: "post",
    path: "/auth/oidc/token",
    operationId: "completeOidcSignIn",
    summary: "Finish SSO with OpenID Connect: the code and state the IdP sent to the callback; a session cookie",
    tag: "SSO",
    access: { kind: "public" },
    body: OidcTokenSchema,
    errors: [401, 403],
    errorNotes: {
      401: "SSO_STATE_INVALID (unknown, expired or used state, or a sign-in another browser started: no matching SSO cookie) or SSO_IDP_RESPONSE_INVALID",
      403: "SSO_EMAIL_NOT_VERIFIED, SSO_DOMAIN_NOT_VERIFIED or AUTH_HTTPS_REQUIRED",
    },
    responses: { 200: { description: "Signed in (Set-Cookie)", schema: SsoSignedInSchema, session: "set" } },
    handler: async (ctx) => {
      if (ctx.cookieMode === "none")
        throw new AppError("forbidden", "AUTH_HTTPS_REQUIRED", "Sign in over https (or on http://localhost)");
      const res = await ctx.clients.identity.completeOidcLogin({
        state: ctx.body.state,
        code: ctx.body.code,
        iss: ctx.body.iss ?? "",
        client_ip: ctx.clientIp,
        user_agent: ctx.userAgent,
        urls: ssoUrls(publicOrigin(ctx.apiBaseUrl)),
        browser_binding: ssoBindingFrom(ctx.cookieHeader, ctx.cookieMode),
      });
      return {
        status: 200,
        body: { session: sessionJson(res.session_token, res.session!) },
        session: { token: res.session_token, expiresAt: res.session!.expires_at },
      };
    },
  }),
  route({
    method: "get",
    path: "/auth/saml/login",
    operationId: "startSamlSignIn",
    summary: "Start SSO with SAML 2.0 (SP-initiated, Redirect binding) for the email's verified domain",
    tag: "SSO",
    access: { kind: "public" },
    query: SsoEmailQuery,
    errors: [422],
    errorNotes: { 422: "errors[0].field = email: no verified SSO domain, or the domain uses OIDC" },
    responses: { 302: { description: "To the identity provider (sets the SSO cookie the sign-in is bound to)" } },
    handler: async ({ query, clients, apiBaseUrl, cookieHeader, cookieMode }) => {
      const { binding, setCookies } = ssoBindingFor(cookieHeader, cookieMode);
      const res = await clients.identity.startSsoLogin({
        email: query.email,
        protocol: "saml",
        urls: ssoUrls(publicOrigin(apiBaseUrl)),
        browser_binding: binding,
      });
      return { status: 302, headers: { Location: res.redirect_url }, setCookies };
    },
  }),
];

const CALLBACK_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Signing in…</title>
<script src="/auth/oidc/callback.js" defer></script></head><body><main><p id="status">Signing in…</p></main></body></html>`;

// Sends what the IdP put in the address to POST /auth/oidc/token, then goes to the portal.
const CALLBACK_SCRIPT = `(async () => {
  const q = new URLSearchParams(location.search);
  const status = document.getElementById("status");
  if (q.get("error")) { status.textContent = "The identity provider refused: " + (q.get("error_description") || q.get("error")); return; }
  const body = { code: q.get("code") || "", state: q.get("state") || "" };
  if (q.get("iss")) body.iss = q.get("iss");
  const res = await fetch("/auth/oidc/token", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), credentials: "same-origin" });
  const json = await res.json().catch(() => ({}));
  if (res.ok) { status.textContent = "Signed in as " + json.session.user.email; location.replace("/"); }
  else { status.setAttribute("role", "alert"); status.textContent = "Sign-in failed: " + (json.message || res.status); }
})();`;

/** The ACS's answer: a form that posts the IdP's fields on to the same-site finishing step. */
const acsPage = (samlResponse: string, relayState: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Signing in…</title>
<script src="/auth/saml/continue.js" defer></script></head><body><main>
<form id="continue" method="post" action="/auth/saml/finish">
<input type="hidden" name="SAMLResponse" value="${escapeHtml(samlResponse)}">
<input type="hidden" name="RelayState" value="${escapeHtml(relayState)}">
<p>Signing in…</p><noscript><button type="submit">Continue</button></noscript>
</form></main></body></html>`;

const ACS_SCRIPT = `document.getElementById("continue").submit();`;

export interface SsoMountOptions {
  clients: Clients;
  /** The configured public origin; unset: the request's own. */
  origin?: string;
}

/** The pages and form posts that are not JSON: the OIDC callback page, SAML metadata and ACS. */
export function mountSso(app: Express, throttle: RequestHandler, opts: SsoMountOptions): void {
  const originFor = (req: Request) => opts.origin ?? `${req.protocol}://${req.get("host") ?? "localhost"}`;
  const form = express.urlencoded({ extended: false, limit: bodyLimit("saml", Number.MAX_SAFE_INTEGER) });
  app.get("/auth/oidc/callback", throttle, (_req, res) => {
    res.setHeader("Cache-Control", "no-store");
    res.type("html").send(CALLBACK_PAGE);
  });
  app.get("/auth/oidc/callback.js", throttle, (_req, res) => {
    res.type("application/javascript").send(CALLBACK_SCRIPT);
  });
  app.get("/auth/saml/metadata", throttle, async (req, res, next) => {
    try {
      const org = typeof req.query.org === "string" ? req.query.org : "";
      if (!org)
        throw errors.validation([{ field: "org", code: "REQUIRED", message: "org (the organization id) is required" }]);
      const { xml } = await opts.clients.identity.getSamlMetadata({
        organization_id: org,
        urls: ssoUrls(originFor(req)),
      });
      res.type("application/samlmetadata+xml").send(xml);
    } catch (err) {
      next(err);
    }
  });
  const samlPost = (req: Request) => {
    if (cookieMode(req) === "none")
      throw new AppError("forbidden", "AUTH_HTTPS_REQUIRED", "Sign in over https (or on http://localhost)");
    const body = (req.body ?? {}) as Record<string, unknown>;
    const samlResponse = typeof body.SAMLResponse === "string" ? body.SAMLResponse : "";
    if (!samlResponse)
      throw errors.validation([{ field: "SAMLResponse", code: "REQUIRED", message: "SAMLResponse is required" }]);
    return { samlResponse, relayState: typeof body.RelayState === "string" ? body.RelayState : "" };
  };
  // The IdP's cross-site POST carries no SameSite=Lax cookie, so the browser that started the
  // sign-in cannot be recognized here: this page posts the same fields on to /auth/saml/finish
  // from this site, where the SSO cookie comes along.
  app.post("/auth/saml/acs", throttle, form, (req, res, next) => {
    try {
      const { samlResponse, relayState } = samlPost(req);
      res.setHeader("Cache-Control", "no-store");
      res.type("html").send(acsPage(samlResponse, relayState));
    } catch (err) {
      next(err);
    }
  });
  app.get("/auth/saml/continue.js", throttle, (_req, res) => {
    res.type("application/javascript").send(ACS_SCRIPT);
  });
  app.post("/auth/saml/finish", throttle, form, async (req, res, next) => {
    try {
      const { samlResponse, relayState } = samlPost(req);
      const result = await opts.clients.identity.completeSamlLogin({
        saml_response: samlResponse,
        relay_state: relayState,
        client_ip: req.ip ?? "",
        user_agent: req.get("user-agent") ?? "",
        urls: ssoUrls(originFor(req)),
        browser_binding: ssoBindingFrom(req.get("cookie"), cookieMode(req)),
      });
      setSessionCookie(req, res, result.session_token, result.session!.expires_at);
      res.setHeader("Cache-Control", "no-store");
      res.redirect(303, "/");
    } catch (err) {
      next(err);
    }
  });
}
