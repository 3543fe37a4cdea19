// Sign-in for people: password, second factor, the session cookie, sign-out, MFA enrolment, and
// "who is signed in" (GET /auth/session), which the portal and the OAuth server build on.
// Written by hand rather than generated from identity.proto (docs/contracts.md): these routes
// set and clear the session cookie, take the session token from it rather than from a field, run
// the MFA challenge (a short-lived token between two steps), and the passkey ceremonies carry the
// relying party (the site's origin) and WebAuthn's own JSON, which the service keeps as text.
import { AppError } from "@verdict/kit";
import type { identityV1 } from "@verdict/proto";
import type { Principal } from "../http/auth.js";
import { route, type RouteContext } from "../http/route.js";
import {
  PasskeyAddedSchema,
  PasskeyListSchema,
  PasskeyLoginOptionsSchema,
  PasskeySchema,
  RenamePasskeySchema,
  PasskeyLoginSchema,
  PasskeyRegistrationSchema,
  WebauthnOptionsSchema,
} from "../http/peopleSchemas.js";
import {
  ConfirmTotpSchema,
  LoginResultSchema,
  LoginSchema,
  SessionSchema,
  TotpEnabledSchema,
  TotpEnrolmentSchema,
  TotpLoginSchema,
} from "../http/peopleSchemas.js";
import { csrfTokenFor } from "../http/session.js";
import { IdParam } from "../http/schemas.js";
import { etagOf, expectedVersion } from "../http/versions.js";
import { noContent } from "./common.js";

const CredentialParams = IdParam("credential_id");

function passkeyJson(p: identityV1.Passkey) {
  return {
    id: p.id,
    name: p.name,
    created_at: p.created_at,
    last_used_at: p.last_used_at ?? null,
    device_type: p.device_type as "singleDevice" | "multiDevice" | "unknown",
    backed_up: p.backed_up,
    transports: p.transports,
    version: p.version,
  };
}

export function sessionJson(token: string, s: identityV1.Session) {
  return {
    id: s.id,
    user: { id: s.user_id, email: s.email, name: s.name, mfa_enabled: s.mfa_enabled },
    organization: { id: s.organization_id, name: s.organization_name },
    role: s.role as "owner" | "admin" | "member" | "viewer",
    scopes: s.scopes,
    created_at: s.created_at,
    idle_expires_at: s.idle_expires_at,
    expires_at: s.expires_at,
    mfa_enrolment_required: s.mfa_enrolment_required,
    csrf_token: csrfTokenFor(token),
  };
}

export function assertCookiesPossible(ctx: RouteContext<unknown, unknown, unknown>): void {
  if (ctx.cookieMode === "none") {
    throw new AppError(
      "forbidden",
      "AUTH_HTTPS_REQUIRED",
      "Sign in over https (or on http://localhost): the session cookie is never sent over plain http elsewhere",
    );
  }
}

export function signedIn(principal: Principal | undefined): NonNullable<Principal["session"]> {
  if (!principal?.session)
    throw new AppError(
      "forbidden",
      "AUTH_SESSION_REQUIRED",
      "This needs a signed-in person (the session cookie), not an API key",
    );
  return principal.session;
}

/** The relying party is the site the browser is on: VERDICT_PUBLIC_URL, else the request's host. */
function relyingParty(apiBaseUrl: string): identityV1.RelyingParty {
  const u = new URL(apiBaseUrl);
  return { rp_id: u.hostname, origin: u.origin };
}

function parsedOptions(json: string): Record<string, unknown> {
  return JSON.parse(json) as Record<string, unknown>;
}

export const signInRoutes = [
  route({
    method: "post",
    path: "/auth/login",
    operationId: "login",
    summary: "Sign in with email and password: a session cookie, or a second factor to give (mfa_required)",
    tag: "Sign-in",
    access: { kind: "public" },
    body: LoginSchema,
    errors: [401, 403],
    errorNotes: {
      401: "AUTH_INVALID_CREDENTIALS (the same for unknown emails)",
      403: "AUTH_HTTPS_REQUIRED on plain http other than localhost",
      429: "Also AUTH_LOCKED_OUT: too many failures for this account or address; wait Retry-After seconds",
    },
    responses: {
      200: { description: "Signed in (Set-Cookie), or mfa_required", schema: LoginResultSchema, session: "set" },
    },
    handler: async (ctx) => {
      assertCookiesPossible(ctx);
      const { body, clients, clientIp, userAgent } = ctx;
      const res = await clients.identity.login({
        email: body.email,
        password: body.password,
        client_ip: clientIp,
        user_agent: userAgent,
        organization_id: body.organization_id ?? "",
      });
      if (res.mfa_required)
        return { status: 200, body: { mfa_required: true, methods: res.methods, mfa_token: res.mfa_token } };
      return {
        status: 200,
        body: { mfa_required: false, session: sessionJson(res.session_token, res.session!) },
        session: { token: res.session_token, expiresAt: res.session!.expires_at },
      };
    },
  }),
  route({
    method: "post",
    path: "/auth/mfa/totp",
    operationId: "loginWithTotp",
    summary: "Second step of a sign-in: a TOTP code (or a recovery code) with the mfa_token",
    tag: "Sign-in",
    access: { kind: "public" },
    body: TotpLoginSchema,
    errors: [401, 403],
    errorNotes: {
      401: "AUTH_INVALID_MFA_CODE (wrong, expired or already used code) or AUTH_INVALID_SESSION (challenge expired: sign in again)",
    },
    responses: { 200: { description: "Signed in (Set-Cookie)", schema: LoginResultSchema, session: "set" } },
    handler: async (ctx) => {
      assertCookiesPossible(ctx);
      const { body, clients, clientIp, userAgent } = ctx;
      const res = await clients.identity.completeTotpLogin({
        mfa_token: body.mfa_token,
        code: body.code,
        client_ip: clientIp,
        user_agent: userAgent,
      });
      return {
        status: 200,
        body: { mfa_required: false, session: sessionJson(res.session_token, res.session!) },
        session: { token: res.session_token, expiresAt: res.session!.expires_at },
      };
    },
  }),
  route({
    method: "get",
    path: "/auth/session",
    operationId: "getSession",
    summary: "Who is signed in (and the session's CSRF token)",
    tag: "Sign-in",
    access: { kind: "authenticated" },
    duringMfaEnrolment: true,
    errorNotes: {
      401: "Also AUTH_INVALID_SESSION or AUTH_SESSION_EXPIRED",
      403: "Also AUTH_SESSION_REQUIRED when called with an API key",
    },
    responses: { 200: { description: "The session", schema: SessionSchema } },
    handler: async ({ principal, clients, clientIp }) => {
      const s = signedIn(principal);
      const res = await clients.identity.verifySession({ session_token: s.token, client_ip: clientIp });
      return { status: 200, body: sessionJson(s.token, res.session!) };
    },
  }),
  route({
    method: "post",
    path: "/auth/logout",
    operationId: "logout",
    summary: "Sign out: the session ends and its cookie is cleared",
    tag: "Sign-in",
    access: { kind: "authenticated" },
    duringMfaEnrolment: true,
    errorNotes: { 403: "Also AUTH_CSRF_FAILED (X-CSRF-Token missing or wrong) or AUTH_SESSION_REQUIRED" },
    responses: { 204: { description: "Signed out (Set-Cookie: the cookie expired)", session: "clear" } },
    handler: async ({ principal, clients, clientIp }) => {
      const s = signedIn(principal);
      await clients.identity.logout({ session_token: s.token, client_ip: clientIp });
      return { status: 204, session: "clear" };
    },
  }),
  route({
    method: "post",
    path: "/auth/mfa/totp/enrolment",
    operationId: "startTotpEnrolment",
    summary: "Start TOTP enrolment: a secret for the authenticator app (confirm it with a first code)",
    tag: "Sign-in",
    access: { kind: "authenticated" },
    duringMfaEnrolment: true,
    errors: [409],
    errorNotes: { 409: "TOTP is already enabled" },
    responses: { 201: { description: "The secret, shown once", schema: TotpEnrolmentSchema } },
    handler: async ({ principal, clients }) => {
      const s = signedIn(principal);
      const res = await clients.identity.startTotpEnrolment({ session_token: s.token });
      return { status: 201, body: { secret: res.secret, otpauth_uri: res.otpauth_uri } };
    },
  }),
  route({
    method: "post",
    path: "/auth/mfa/totp/enrolment/confirm",
    operationId: "confirmTotpEnrolment",
    summary: "Confirm TOTP enrolment with a first code: recovery codes (shown once) and a new session",
    tag: "Sign-in",
    access: { kind: "authenticated" },
    duringMfaEnrolment: true,
    body: ConfirmTotpSchema,
    errors: [409, 422],
    errorNotes: { 401: "Also AUTH_INVALID_MFA_CODE", 422: "No enrolment under way" },
    responses: {
      200: {
        description: "TOTP enabled (Set-Cookie: the session was replaced)",
        schema: TotpEnabledSchema,
        session: "set",
      },
    },
    handler: async ({ principal, body, clients, clientIp, userAgent }) => {
      const s = signedIn(principal);
      const res = await clients.identity.confirmTotpEnrolment({
        session_token: s.token,
        code: body.code,
        client_ip: clientIp,
        user_agent: userAgent,
      });
      return {
        status: 200,
        body: { recovery_codes: res.recovery_codes, session: sessionJson(res.session_token, res.session!) },
        session: { token: res.session_token, expiresAt: res.session!.expires_at },
      };
    },
  }),
  route({
    method: "post",
    path: "/auth/webauthn/registration/options",
    operationId: "startPasskeyRegistration",
    summary: "Options to register a passkey (WebAuthn) for the signed-in person",
    tag: "Sign-in",
    access: { kind: "authenticated" },
    duringMfaEnrolment: true,
    responses: { 200: { description: "PublicKeyCredentialCreationOptionsJSON", schema: WebauthnOptionsSchema } },
    handler: async ({ principal, clients, apiBaseUrl }) => {
      const s = signedIn(principal);
      const res = await clients.identity.startPasskeyRegistration({
        session_token: s.token,
        rp: relyingParty(apiBaseUrl),
      });
      return { status: 200, body: { options: parsedOptions(res.options_json) } };
    },
  }),
  route({
    method: "post",
    path: "/auth/webauthn/registration/verify",
    operationId: "finishPasskeyRegistration",
    summary: "Register the passkey the browser created; the session is replaced",
    tag: "Sign-in",
    access: { kind: "authenticated" },
    duringMfaEnrolment: true,
    body: PasskeyRegistrationSchema,
    errors: [409, 422],
    errorNotes: { 401: "Also AUTH_INVALID_MFA_CODE: the answer did not verify (wrong challenge, origin or signature)" },
    responses: {
      200: {
        description: "Registered (Set-Cookie: the session was replaced)",
        schema: PasskeyAddedSchema,
        session: "set",
      },
    },
    handler: async ({ principal, body, clients, clientIp, userAgent, apiBaseUrl }) => {
      const s = signedIn(principal);
      const res = await clients.identity.finishPasskeyRegistration({
        session_token: s.token,
        rp: relyingParty(apiBaseUrl),
        response_json: JSON.stringify(body.response),
        name: body.name ?? "",
        client_ip: clientIp,
        user_agent: userAgent,
      });
      return {
        status: 200,
        body: { recovery_codes: res.recovery_codes, session: sessionJson(res.session_token, res.session!) },
        session: { token: res.session_token, expiresAt: res.session!.expires_at },
      };
    },
  }),
  route({
    method: "post",
    path: "/auth/webauthn/login/options",
    operationId: "startPasskeyLogin",
    summary: "Second step of a sign-in with a passkey: options to sign (with the mfa_token)",
    tag: "Sign-in",
    access: { kind: "public" },
    body: PasskeyLoginOptionsSchema,
    errors: [401],
    errorNotes: { 401: "AUTH_INVALID_SESSION: the sign-in challenge expired; sign in again" },
    responses: { 200: { description: "PublicKeyCredentialRequestOptionsJSON", schema: WebauthnOptionsSchema } },
    handler: async ({ body, clients, apiBaseUrl }) => {
      const res = await clients.identity.startPasskeyLogin({ mfa_token: body.mfa_token, rp: relyingParty(apiBaseUrl) });
      return { status: 200, body: { options: parsedOptions(res.options_json) } };
    },
  }),
  route({
    method: "post",
    path: "/auth/webauthn/login/verify",
    operationId: "finishPasskeyLogin",
    summary: "Complete a sign-in with the passkey's signature",
    tag: "Sign-in",
    access: { kind: "public" },
    body: PasskeyLoginSchema,
    errors: [401, 403, 422],
    errorNotes: {
      401: "AUTH_INVALID_MFA_CODE (the signature did not verify) or AUTH_INVALID_SESSION (challenge expired)",
    },
    responses: { 200: { description: "Signed in (Set-Cookie)", schema: LoginResultSchema, session: "set" } },
    handler: async (ctx) => {
      assertCookiesPossible(ctx);
      const { body, clients, clientIp, userAgent, apiBaseUrl } = ctx;
      const res = await clients.identity.finishPasskeyLogin({
        mfa_token: body.mfa_token,
        rp: relyingParty(apiBaseUrl),
        response_json: JSON.stringify(body.response),
        client_ip: clientIp,
        user_agent: userAgent,
      });
      return {
        status: 200,
        body: { mfa_required: false, session: sessionJson(res.session_token, res.session!) },
        session: { token: res.session_token, expiresAt: res.session!.expires_at },
      };
    },
  }),
  route({
    method: "get",
    path: "/auth/webauthn/credentials",
    operationId: "listPasskeys",
    summary: "The signed-in person's passkeys: name, created, last used, device type, backed up",
    tag: "Sign-in",
    access: { kind: "authenticated" },
    duringMfaEnrolment: true,
    errorNotes: { 403: "Also AUTH_SESSION_REQUIRED when called with an API key: passkeys belong to a person" },
    responses: { 200: { description: "Oldest first", schema: PasskeyListSchema } },
    handler: async ({ principal, clients }) => {
      const s = signedIn(principal);
      const res = await clients.identity.listPasskeys({ session_token: s.token });
      return { status: 200, body: { passkeys: res.passkeys.map(passkeyJson) } };
    },
  }),
  route({
    method: "patch",
    path: "/auth/webauthn/credentials/:credential_id",
    operationId: "renamePasskey",
    summary: "Rename one of the signed-in person's passkeys",
    tag: "Sign-in",
    access: { kind: "authenticated" },
    duringMfaEnrolment: true,
    params: CredentialParams,
    body: RenamePasskeySchema,
    ifMatch:
      'The passkey\'s version as its ETag or `version` gives it (W/"2"): the change happens only if nobody renamed or deleted it since; else 412 VERSION_MISMATCH. * or absent: whatever its version',
    errors: [404],
    errorNotes: {
      403: "Also AUTH_CSRF_FAILED or AUTH_SESSION_REQUIRED",
      404: "Not one of this person's passkeys (another person's answers the same)",
    },
    responses: { 200: { description: "The passkey (ETag: its new version)", schema: PasskeySchema } },
    handler: async ({ principal, params, body, clients, ifMatch }) => {
      const s = signedIn(principal);
      const res = await clients.identity.renamePasskey({
        session_token: s.token,
        passkey_id: params.credential_id,
        name: body.name,
        expected_version: expectedVersion(ifMatch, body.version),
      });
      return { status: 200, body: passkeyJson(res.passkey!), headers: { ETag: etagOf(res.passkey!.version) } };
    },
  }),
  route({
    method: "delete",
    path: "/auth/webauthn/credentials/:credential_id",
    operationId: "deletePasskey",
    summary: "Delete one of the signed-in person's passkeys (refused for the last second factor when MFA is required)",
    tag: "Sign-in",
    access: { kind: "authenticated" },
    duringMfaEnrolment: true,
    params: CredentialParams,
    ifMatch:
      'The passkey\'s version as its ETag or `version` gives it (W/"2"): the change happens only if nobody renamed or deleted it since; else 412 VERSION_MISMATCH. * or absent: whatever its version',
    errors: [404, 422],
    errorNotes: {
      403: "Also AUTH_CSRF_FAILED or AUTH_SESSION_REQUIRED",
      404: "Not one of this person's passkeys (another person's answers the same)",
      422: "It is the person's last second factor and an organization they belong to requires MFA (field credential_id)",
    },
    responses: noContent,
    handler: async ({ principal, params, clients, clientIp, ifMatch }) => {
      const s = signedIn(principal);
      await clients.identity.deletePasskey({
        session_token: s.token,
        passkey_id: params.credential_id,
        client_ip: clientIp,
        expected_version: expectedVersion(ifMatch),
      });
      return { status: 204 };
    },
  }),
];
