// The OpenAPI description of what the gateway serves outside its route table: the OAuth 2.0
// authorization server (oidc-provider, mounted by oauth/routes.ts) with its sign-in and consent
// pages, and the browser legs of SSO (routes/sso.ts: the OIDC callback page, SAML metadata and
// the SAML assertion consumer service). They speak OAuth's, HTML's and SAML's formats, not the
// API's JSON, so they are written here by hand; openapi.test.ts checks that every path the
// gateway mounts is documented and the e2e suite that each documented path answers.

type Json = Record<string, unknown>;

/** The authorization server's endpoints that oidc-provider answers (oauth/provider.ts `routes`, enabled features). */
export const OAUTH_PROVIDER_PATHS = [
  "/auth/oauth/authorize",
  "/auth/oauth/authorize/{uid}",
  "/auth/oauth/token",
  "/auth/oauth/revoke",
  "/auth/oauth/par",
  "/auth/oauth/jwks",
  "/auth/oauth/logout",
  "/auth/oauth/logout/confirm",
  "/auth/oauth/logout/success",
] as const;

const OAUTH_ERROR: Json = {
  type: "object",
  description: "RFC 6749 §5.2 error (OAuth's format, not the API's Error)",
  required: ["error"],
  properties: {
    error: {
      type: "string",
      examples: ["invalid_request", "invalid_client", "invalid_grant", "unsupported_grant_type", "invalid_scope"],
    },
    error_description: { type: "string" },
  },
};

const html = (description: string): Json => ({ description, content: { "text/html": { schema: { type: "string" } } } });
const redirect = (description: string): Json => ({
  description,
  headers: { Location: { description: "Where the browser goes next", schema: { type: "string" } } },
});
const sessionCookie = (description: string): Json => ({
  ...redirect(description),
  headers: {
    Location: { description: "Where the browser goes next", schema: { type: "string" } },
    "Set-Cookie": {
      description:
        "__Host-verdict_session=vdt_ses_… (https) or verdict_session=vdt_ses_… (http://localhost): HttpOnly, SameSite=Lax, Path=/",
      schema: { type: "string" },
    },
  },
});
/** oidc-provider's error: a page for a browser, RFC 6749's JSON for a client that asks for JSON. */
const htmlOrOAuthError = (description: string): Json => ({
  description,
  content: {
    "text/html": { schema: { type: "string" } },
    "application/json": { schema: OAUTH_ERROR },
  },
});
const apiError = (description: string): Json => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});
const tooMany = apiError("RATE_LIMIT_EXCEEDED: these endpoints are throttled per address (Retry-After)");
const expired = html(
  "An expired or unknown interaction (or its cookie missing): an error page; start again from the application",
);
const uidParam: Json = {
  name: "uid",
  in: "path",
  required: true,
  description: "The interaction id the authorization endpoint redirected to",
  schema: { type: "string" },
};
const formBody = (properties: Record<string, Json>, required: string[], description?: string): Json => ({
  required: true,
  ...(description ? { description } : {}),
  content: {
    "application/x-www-form-urlencoded": { schema: { type: "object", required, properties } },
  },
});
const str = (description: string, extra: Json = {}): Json => ({ type: "string", description, ...extra });
const tag = "OAuth server and SSO pages";
const op = (operationId: string, summary: string, rest: Json): Json => ({
  operationId,
  summary,
  tags: [tag],
  security: [],
  "x-not-json-api": true,
  ...rest,
});

const TOKEN_FIELDS: Record<string, Json> = {
  grant_type: str("authorization_code or refresh_token", { enum: ["authorization_code", "refresh_token"] }),
  code: str("authorization_code: the code from the redirect"),
  redirect_uri: str("authorization_code: the redirect_uri of the authorization request"),
  code_verifier: str("authorization_code: the PKCE verifier (required for public clients)"),
  refresh_token: str("refresh_token: vdt_ort_…; rotated at every use (reuse revokes the grant)"),
  client_id: str("oac_…"),
  client_secret: str("vdt_ocs_…: confidential clients (client_secret_post; HTTP Basic also accepted)"),
  scope: str("refresh_token: a subset of the granted scopes"),
};

const REVOKE_FIELDS: Record<string, Json> = {
  token: str("vdt_oat_… or vdt_ort_… (revoking a refresh token revokes its grant)"),
  token_type_hint: str("access_token or refresh_token", { enum: ["access_token", "refresh_token"] }),
  client_id: str("oac_…"),
  client_secret: str("vdt_ocs_…: confidential clients"),
};

/** Path items for /auth/* and /.well-known/* routes outside the route table. */
export function authPagesPaths(): Record<string, Record<string, Json>> {
  const metadata = op("getAuthorizationServerMetadata", "RFC 8414 authorization server metadata", {
    responses: {
      200: {
        description:
          "issuer, authorization_endpoint, token_endpoint, revocation_endpoint, jwks_uri, scopes_supported, …",
        content: { "application/json": { schema: { type: "object", additionalProperties: true } } },
      },
      429: tooMany,
    },
  });
  return {
    "/.well-known/oauth-authorization-server": { get: metadata },
    "/.well-known/oauth-authorization-server/auth": {
      get: {
        ...metadata,
        operationId: "getAuthorizationServerMetadataForIssuer",
        summary: "The same metadata at the issuer's path (RFC 8414 §3)",
      },
    },
    "/auth/oauth/authorize": {
      get: op("oauthAuthorize", "Authorization endpoint: starts the sign-in and consent pages", {
        parameters: [
          ["response_type", "code", true],
          ["client_id", "oac_…", true],
          ["redirect_uri", "One of the client's registered redirect URIs, exactly", true],
          ["scope", "Space-separated API scopes (read:evaluations …), openid, offline_access", true],
          ["state", "Opaque value returned to the redirect URI", false],
          ["code_challenge", "PKCE S256 challenge (required for public clients)", false],
          ["code_challenge_method", "S256", false],
        ].map(([name, description, required]) => ({
          name,
          in: "query",
          required,
          description,
          schema: { type: "string" },
        })),
        responses: {
          303: redirect(
            "To /auth/oauth/interaction/{uid} (sign-in and consent); at the end to redirect_uri with code and state, or with error=access_denied",
          ),
          400: html("An unknown client or an unregistered redirect_uri: an error page, never a redirect"),
          429: tooMany,
        },
      }),
    },
    "/auth/oauth/token": {
      post: op("oauthToken", "Token endpoint: a code or refresh token for tokens (form or JSON body)", {
        requestBody: {
          required: true,
          description: "Form-encoded as RFC 6749 says, or the same fields as a JSON object of strings",
          content: {
            "application/x-www-form-urlencoded": {
              schema: { type: "object", required: ["grant_type"], properties: TOKEN_FIELDS },
            },
            "application/json": {
              schema: {
                type: "object",
                required: ["grant_type"],
                properties: TOKEN_FIELDS,
                additionalProperties: { type: "string" },
              },
            },
          },
        },
        responses: {
          200: {
            description: "Tokens; Cache-Control: no-store",
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["access_token", "token_type", "expires_in", "scope"],
                  properties: {
                    access_token: str("vdt_oat_…: use as Authorization: Bearer on /v1"),
                    token_type: { type: "string", enum: ["Bearer"] },
                    expires_in: { type: "integer", examples: [3600] },
                    refresh_token: str("vdt_ort_…"),
                    scope: str("The granted scopes: within the client's registration and the member's role"),
                    id_token: str("With scope openid"),
                  },
                },
              },
            },
          },
          400: {
            description: "invalid_request, invalid_grant, unsupported_grant_type, invalid_scope",
            content: { "application/json": { schema: OAUTH_ERROR } },
          },
          401: { description: "invalid_client", content: { "application/json": { schema: OAUTH_ERROR } } },
          429: tooMany,
        },
      }),
    },
    "/auth/oauth/revoke": {
      post: op("oauthRevoke", "RFC 7009 revocation (form or JSON body)", {
        requestBody: {
          required: true,
          content: {
            "application/x-www-form-urlencoded": {
              schema: { type: "object", required: ["token"], properties: REVOKE_FIELDS },
            },
            "application/json": { schema: { type: "object", required: ["token"], properties: REVOKE_FIELDS } },
          },
        },
        responses: {
          200: { description: "Revoked (also for a token that was unknown or already revoked, as RFC 7009 says)" },
          400: { description: "invalid_request", content: { "application/json": { schema: OAUTH_ERROR } } },
          401: { description: "invalid_client", content: { "application/json": { schema: OAUTH_ERROR } } },
          429: tooMany,
        },
      }),
    },
    "/auth/oauth/jwks": {
      get: op("oauthJwks", "The authorization server's public keys (signs id_tokens)", {
        responses: {
          200: {
            description: "A JWK set",
            content: {
              "application/jwk-set+json": {
                schema: { type: "object", required: ["keys"], properties: { keys: { type: "array" } } },
              },
            },
          },
          429: tooMany,
        },
      }),
    },
    "/auth/oauth/authorize/{uid}": {
      get: op("oauthAuthorizeResume", "Where a finished sign-in and consent return to: the authorization completes", {
        parameters: [uidParam],
        responses: {
          303: redirect("To redirect_uri with code and state (or error=access_denied)"),
          400: html("No interaction under way in this browser, or it expired (10 minutes)"),
          429: tooMany,
        },
      }),
    },
    "/auth/oauth/par": {
      post: op(
        "oauthPushedAuthorizationRequest",
        "RFC 9126 pushed authorization request: the parameters of /auth/oauth/authorize, sent first",
        {
          requestBody: formBody(
            {
              client_id: str("oac_…"),
              client_secret: str("vdt_ocs_…: confidential clients"),
              response_type: str("code"),
              redirect_uri: str("A registered redirect URI"),
              scope: str("Space-separated scopes"),
              state: str("Opaque value"),
              code_challenge: str("PKCE S256 challenge"),
              code_challenge_method: str("S256"),
            },
            ["client_id", "response_type", "redirect_uri"],
          ),
          responses: {
            201: {
              description: "Use request_uri with client_id at /auth/oauth/authorize",
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    required: ["request_uri", "expires_in"],
                    properties: { request_uri: { type: "string" }, expires_in: { type: "integer" } },
                  },
                },
              },
            },
            400: {
              description: "invalid_request, invalid_scope, invalid_redirect_uri",
              content: { "application/json": { schema: OAUTH_ERROR } },
            },
            401: { description: "invalid_client", content: { "application/json": { schema: OAUTH_ERROR } } },
            429: tooMany,
          },
        },
      ),
    },
    "/auth/oauth/logout": {
      get: op("oauthLogout", "OpenID Connect RP-initiated logout: ends the authorization server's own session", {
        parameters: ["id_token_hint", "post_logout_redirect_uri", "state", "client_id"].map((name) => ({
          name,
          in: "query",
          required: false,
          schema: { type: "string" },
        })),
        responses: {
          200: html("A page that confirms the sign-out (a form to /auth/oauth/logout/confirm)"),
          400: htmlOrOAuthError("An id_token_hint that does not decode, an unknown client or post_logout_redirect_uri"),
          429: tooMany,
        },
      }),
    },
    "/auth/oauth/logout/confirm": {
      post: op("oauthLogoutConfirm", "The logout page's form", {
        requestBody: formBody({ xsrf: str("The page's anti-forgery value"), logout: str("yes: sign out") }, ["xsrf"]),
        responses: {
          303: redirect("To post_logout_redirect_uri, or to /auth/oauth/logout/success"),
          400: htmlOrOAuthError("A missing or wrong xsrf value, or no logout under way"),
          429: tooMany,
        },
      }),
    },
    "/auth/oauth/logout/success": {
      get: op("oauthLogoutSuccess", "Signed out of the authorization server", {
        responses: { 200: html("A page saying so"), 429: tooMany },
      }),
    },
    "/auth/oauth/interaction/{uid}": {
      get: op("oauthInteraction", "The sign-in or consent page of an authorization (HTML)", {
        parameters: [uidParam],
        responses: {
          200: html(
            "Signed in (Verdict session cookie): the consent page, with the requested scopes within the member's role and the refused ones; otherwise a sign-in form",
          ),
          400: expired,
          403: html("The organization requires MFA enrolment first"),
          429: tooMany,
        },
      }),
    },
    "/auth/oauth/interaction/{uid}/login": {
      post: op("oauthInteractionLogin", "The sign-in form of an authorization", {
        parameters: [uidParam],
        requestBody: formBody({ email: str("Email"), password: str("Password") }, ["email", "password"]),
        responses: {
          200: html("The second-factor form (TOTP or a recovery code), when the account has one"),
          303: sessionCookie("Signed in: back to the interaction page, with the session cookie"),
          401: html("The sign-in form again, with the reason"),
          400: expired,
          429: tooMany,
        },
      }),
    },
    "/auth/oauth/interaction/{uid}/totp": {
      post: op("oauthInteractionTotp", "The second-factor form of an authorization", {
        parameters: [uidParam],
        requestBody: formBody({ mfa_token: str("From the sign-in step"), code: str("TOTP or recovery code") }, [
          "mfa_token",
          "code",
        ]),
        responses: {
          303: sessionCookie("Signed in: back to the interaction page, with the session cookie"),
          401: html("The form again, with the reason"),
          400: expired,
          429: tooMany,
        },
      }),
    },
    "/auth/oauth/interaction/{uid}/confirm": {
      post: op("oauthInteractionConfirm", "Allow: the consent form (needs the session cookie and its CSRF token)", {
        parameters: [uidParam],
        requestBody: formBody(
          { csrf_token: str("The session's CSRF token, as the consent page embeds it"), decision: str("allow") },
          ["csrf_token"],
        ),
        responses: {
          303: redirect("On to the authorization endpoint, then to redirect_uri with code and state"),
          403: html("No session, a wrong CSRF token, or MFA enrolment required"),
          400: expired,
          429: tooMany,
        },
      }),
    },
    "/auth/oauth/interaction/{uid}/abort": {
      post: op("oauthInteractionAbort", "Deny: the application gets error=access_denied", {
        parameters: [uidParam],
        responses: { 303: redirect("To redirect_uri with error=access_denied"), 400: expired, 429: tooMany },
      }),
    },
    "/auth/oidc/callback": {
      get: op("oidcCallbackPage", "{portal_url}/auth/oidc/callback: the page the identity provider returns to", {
        description:
          "Its script sends the code and state in the address to POST /auth/oidc/token (which sets the session cookie), then opens the portal",
        parameters: ["code", "state", "iss", "error", "error_description"].map((name) => ({
          name,
          in: "query",
          required: false,
          schema: { type: "string" },
        })),
        responses: { 200: html("The callback page"), 429: tooMany },
      }),
    },
    "/auth/oidc/callback.js": {
      get: op("oidcCallbackScript", "The callback page's script (a separate file: the CSP allows no inline script)", {
        responses: {
          200: { description: "JavaScript", content: { "application/javascript": { schema: { type: "string" } } } },
          429: tooMany,
        },
      }),
    },
    "/auth/saml/metadata": {
      get: op("samlMetadata", "The service provider's SAML 2.0 metadata for an organization's connection", {
        parameters: [
          {
            name: "org",
            in: "query",
            required: true,
            description: "The organization id (org_…)",
            schema: { type: "string", minLength: 1 },
          },
        ],
        responses: {
          200: {
            description: "EntityDescriptor with the ACS URL and entity id",
            content: { "application/samlmetadata+xml": { schema: { type: "string" } } },
          },
          400: apiError("VALIDATION_FAILED: org is required (details.errors[0].field = org, code REQUIRED)"),
          404: apiError("RESOURCE_NOT_FOUND: no such organization or no SAML connection"),
          429: tooMany,
        },
      }),
    },
    "/auth/saml/acs": {
      post: op("samlAssertionConsumer", "SAML assertion consumer service (HTTP-POST binding)", {
        description:
          "The identity provider's cross-site POST carries no SameSite cookie: the page answered posts the same fields on to POST /auth/saml/finish from this site, with the SSO cookie of the browser that started the sign-in",
        requestBody: formBody(
          {
            SAMLResponse: str("The identity provider's signed response, base64", { minLength: 1 }),
            RelayState: str("As sent with the request from GET /auth/saml/login"),
          },
          ["SAMLResponse"],
        ),
        responses: {
          200: html("A page whose script posts the fields on to POST /auth/saml/finish"),
          400: apiError("VALIDATION_FAILED: SAMLResponse is required"),
          403: apiError("AUTH_HTTPS_REQUIRED (a session cannot be kept on this address)"),
          429: tooMany,
        },
      }),
    },
    "/auth/saml/continue.js": {
      get: op("samlContinueScript", "The ACS page's script (a separate file: the CSP allows no inline script)", {
        responses: {
          200: { description: "JavaScript", content: { "application/javascript": { schema: { type: "string" } } } },
          429: tooMany,
        },
      }),
    },
    "/auth/saml/finish": {
      post: op("samlFinishSignIn", "Finish SSO with SAML 2.0: the ACS page's same-site post, with the SSO cookie", {
        requestBody: formBody(
          {
            SAMLResponse: str("The identity provider's signed response, base64", { minLength: 1 }),
            RelayState: str("As sent with the request from GET /auth/saml/login"),
          },
          ["SAMLResponse"],
        ),
        responses: {
          303: sessionCookie("Signed in: to the portal, with the session cookie"),
          400: apiError("VALIDATION_FAILED: SAMLResponse is required"),
          401: apiError(
            "SSO_STATE_INVALID (RelayState unknown, expired or already used: a replay; or started by another browser: no matching SSO cookie) or SSO_IDP_RESPONSE_INVALID (signature, issuer, audience, Destination, Recipient, InResponseTo or time did not verify)",
          ),
          403: apiError("AUTH_HTTPS_REQUIRED (a session cannot be kept on this address) or a refused sign-in"),
          429: tooMany,
        },
      }),
    },
  };
}
