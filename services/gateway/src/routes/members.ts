// The member routes whose REST shape differs from the proto, written by hand (docs/contracts.md);
// listing members, changing a role and removing a member are generated from identity.proto
// (gen/identity.rest.ts), and the Member schema and mapper used here are those.
// - Inviting answers the invitation link, built from the token the service answers and the
//   public address only the gateway knows, with the token in the link's fragment (never sent to
//   servers nor in Referer): `public_url` cannot say a fragment.
// - The instance operator's invitation takes the organization from the path, not the credential.
// - Accepting an invitation is a public /auth route: no credential, a session when one is
//   present (a signed-in account accepts as itself), and the service's caller address.
import { AppError } from "@verdict/kit";
import { actingUserId, actorOf } from "../http/auth.js";
import { route } from "../http/route.js";
import { IdParam } from "../http/schemas.js";
import {
  AcceptedInvitationSchema,
  AcceptInvitationSchema,
  InvitedMemberSchema,
  InviteMemberSchema,
} from "../http/peopleSchemas.js";
import { memberJson } from "../gen/identity.rest.js";
import { publicOrigin } from "../http/restTypes.js";

/** The portal page that redeems an invitation; the token rides in the fragment (never sent to servers or in Referer). */
export function invitationUrl(apiBaseUrl: string, token: string): string {
  return `${publicOrigin(apiBaseUrl)}/invitations/accept#token=${token}`;
}

export const memberRoutes = [
  route({
    method: "post",
    path: "/v1/members",
    operationId: "inviteMember",
    summary: "Invite someone by link; `invitation_url` is shown once and works once, for 7 days",
    tag: "Members",
    access: { kind: "scope", scope: "admin" },
    rateClass: "writes",
    body: InviteMemberSchema,
    errors: [409, 422],
    errorNotes: { 403: "Also AUTH_INSUFFICIENT_ROLE: only owners make owners", 409: "The person is already a member" },
    responses: { 201: { description: "The invited member and the link", schema: InvitedMemberSchema } },
    handler: async ({ body, principal, clients, clientIp, apiBaseUrl }) => {
      const res = await clients.identity.inviteMember({
        organization_id: principal!.organizationId,
        email: body.email,
        role: body.role,
        actor: actorOf(principal!, clientIp),
        inviter_user_id: actingUserId(principal!),
      });
      return {
        status: 201,
        body: { ...memberJson(res.member!), invitation_url: invitationUrl(apiBaseUrl, res.invitation_token) },
      };
    },
  }),
  route({
    method: "post",
    path: "/v1/organizations/:organization_id/members",
    operationId: "inviteOrganizationMember",
    summary: "Invite a member, such as the first owner, into any organization (instance operators only)",
    tag: "Instance administration",
    access: { kind: "operator" },
    rateClass: "writes",
    params: IdParam("organization_id", "org"),
    body: InviteMemberSchema,
    errors: [409, 422],
    responses: { 201: { description: "The invited member and the link", schema: InvitedMemberSchema } },
    handler: async ({ params, body, principal, clients, clientIp, apiBaseUrl }) => {
      const res = await clients.identity.inviteMember({
        organization_id: params.organization_id,
        email: body.email,
        role: body.role,
        actor: actorOf(principal!, clientIp),
        inviter_user_id: "",
      });
      return {
        status: 201,
        body: { ...memberJson(res.member!), invitation_url: invitationUrl(apiBaseUrl, res.invitation_token) },
      };
    },
  }),
  route({
    method: "post",
    path: "/auth/invitations/accept",
    operationId: "acceptInvitation",
    summary:
      "Join an organization with an invitation link's token: a brand-new account sets name and password; an existing one gives its password or is signed in",
    tag: "Sign-in",
    access: { kind: "public" },
    sessionIfPresent: true,
    body: AcceptInvitationSchema,
    errors: [401, 403, 404, 410, 422],
    errorNotes: {
      401: "AUTH_INVALID_CREDENTIALS: the existing account's password is wrong",
      403: "AUTH_SIGN_IN_REQUIRED: the account has no password (SCIM or SSO made it): sign in through SSO, then accept signed in; AUTH_INVITATION_ACCOUNT_MISMATCH: signed in as another account; AUTH_CSRF_FAILED",
      404: "The link was used, replaced, withdrawn or never issued",
      410: "INVITATION_EXPIRED",
      422: "name missing, or password shorter than 12 characters",
    },
    responses: { 201: { description: "Joined; sign in with POST /auth/login", schema: AcceptedInvitationSchema } },
    handler: async ({ body, clients, clientIp, principal }) => {
      if (!body.token.startsWith("vdt_inv_"))
        throw new AppError("not_found", "RESOURCE_NOT_FOUND", "This invitation link is not valid", {
          resource_type: "invitation",
        });
      const res = await clients.identity.acceptInvitation({
        token: body.token,
        name: body.name,
        password: body.password,
        client_ip: clientIp,
        session_user_id: principal?.session?.userId ?? "",
      });
      return { status: 201, body: { member: memberJson(res.member!), organization_id: res.organization_id } };
    },
  }),
];
