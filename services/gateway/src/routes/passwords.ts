// Passwords: the signed-in person's change, and the reset link an admin issues (there is no email
// delivery in Verdict: the link is shown once, like invitation links) and the person redeems.
// Written by hand rather than generated from identity.proto (docs/contracts.md): a change acts
// on the session (kept, the person's others end), the reset link is built from the token and the
// public origin only the gateway knows, and redeeming it is a public /auth route with no credential.
import { actingUserId, actorOf } from "../http/auth.js";
import {
  ChangePasswordSchema,
  PasswordChangedSchema,
  PasswordResetLinkSchema,
  ResetPasswordSchema,
} from "../http/peopleSchemas.js";
import { route } from "../http/route.js";
import { IdParam } from "../http/schemas.js";
import { signedIn } from "./signin.js";
import { publicOrigin } from "../http/restTypes.js";

/** The portal page that redeems a reset link; the token rides in the fragment (never sent to servers or in Referer). */
export function passwordResetUrl(apiBaseUrl: string, token: string): string {
  return `${publicOrigin(apiBaseUrl)}/password/reset#token=${token}`;
}

export const passwordRoutes = [
  route({
    method: "post",
    path: "/auth/password",
    operationId: "changePassword",
    summary: "Change your password (the current one required); your other sessions end",
    tag: "Sign-in",
    access: { kind: "authenticated" },
    body: ChangePasswordSchema,
    errors: [401, 422],
    errorNotes: {
      401: "AUTH_INVALID_CREDENTIALS: the current password is wrong",
      403: "Also AUTH_CSRF_FAILED or AUTH_SESSION_REQUIRED",
      422: "new_password shorter than 12 characters; current_password when the account has no password (SSO only)",
      429: "Also AUTH_LOCKED_OUT: counted like sign-in failures",
    },
    responses: { 200: { description: "Changed", schema: PasswordChangedSchema } },
    handler: async ({ principal, body, clients, clientIp }) => {
      const s = signedIn(principal);
      const res = await clients.identity.changePassword({
        session_id: s.sessionId,
        user_id: s.userId,
        organization_id: principal!.organizationId,
        current_password: body.current_password,
        new_password: body.new_password,
        client_ip: clientIp,
      });
      return { status: 200, body: { sessions_ended: res.sessions_ended } };
    },
  }),
  route({
    method: "post",
    path: "/v1/members/:member_id/password-reset",
    operationId: "issuePasswordReset",
    summary: "Issue a password-reset link for a member (shown once; works once, for an hour)",
    tag: "Members",
    access: { kind: "scope", scope: "admin" },
    rateClass: "writes",
    params: IdParam("member_id", "user"),
    errors: [404],
    errorNotes: {
      403: "Also AUTH_INSUFFICIENT_ROLE (only owners reset owners) or AUTH_ACCOUNT_NOT_BOUND (the account also belongs to another organization: only its holder changes its password)",
    },
    responses: { 201: { description: "The link", schema: PasswordResetLinkSchema } },
    handler: async ({ params, principal, clients, clientIp, apiBaseUrl }) => {
      const res = await clients.identity.issuePasswordReset({
        organization_id: principal!.organizationId,
        user_id: params.member_id,
        actor: actorOf(principal!, clientIp),
        issuer_user_id: actingUserId(principal!),
      });
      return {
        status: 201,
        body: { reset_url: passwordResetUrl(apiBaseUrl, res.reset_token), expires_at: res.expires_at },
      };
    },
  }),
  route({
    method: "post",
    path: "/auth/password/reset",
    operationId: "resetPassword",
    summary: "Set a new password with a reset link's token; every session and OAuth grant of the person ends",
    tag: "Sign-in",
    access: { kind: "public" },
    body: ResetPasswordSchema,
    errors: [404, 410, 422],
    errorNotes: {
      404: "The link was used, replaced or never issued",
      410: "PASSWORD_RESET_EXPIRED",
      422: "new_password shorter than 12 characters",
      429: "Also AUTH_LOCKED_OUT: counted like sign-in failures",
    },
    responses: { 204: { description: "The password is set; sign in with it" } },
    handler: async ({ body, clients, clientIp }) => {
      await clients.identity.resetPassword({ token: body.token, new_password: body.new_password, client_ip: clientIp });
      return { status: 204 };
    },
  }),
];
