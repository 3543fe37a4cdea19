import type { identityV1 } from "@verdict/proto";
import { AppError, jsonFields } from "@verdict/kit";
import { actingUserId, actorOf } from "../http/auth.js";
import { route } from "../http/route.js";
import { IdParam } from "../http/schemas.js";
import {
  AcceptedInvitationSchema,
  AcceptInvitationSchema,
  InvitedMemberSchema,
  InviteMemberSchema,
  MemberListSchema,
  MemberSchema,
  UpdateMemberSchema,
} from "../http/peopleSchemas.js";
import { noContent } from "./common.js";
import { publicOrigin } from "../http/restTypes.js";

export function memberJson(m: identityV1.Member) {
  return {
    ...jsonFields(m, ["id", "email", "name", "role", "status", "mfa_enabled", "created_at", "invitation_expires_at"]),
    role: m.role as "owner" | "admin" | "member" | "viewer",
    status: m.status as "active" | "invited",
  };
}

/** The portal page that redeems an invitation; the token rides in the fragment (never sent to servers or in Referer). */
export function invitationUrl(apiBaseUrl: string, token: string): string {
  return `${publicOrigin(apiBaseUrl)}/invitations/accept#token=${token}`;
}

const MemberParam = IdParam("member_id", "user");

export const memberRoutes = [
  route({
    method: "get",
    path: "/v1/members",
    operationId: "listMembers",
    summary: "List the organization's members and open invitations",
    tag: "Members",
    access: { kind: "scope", scope: "read:org" },
    rateClass: "reads",
    responses: { 200: { description: "Members", schema: MemberListSchema } },
    handler: async ({ principal, clients }) => {
      const res = await clients.identity.listMembers({ organization_id: principal!.organizationId });
      return { status: 200, body: { members: res.members.map(memberJson) } };
    },
  }),
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
    method: "patch",
    path: "/v1/members/:member_id",
    operationId: "updateMember",
    summary: "Change a member's role (applies to their sessions at once)",
    tag: "Members",
    access: { kind: "scope", scope: "admin" },
    rateClass: "writes",
    params: MemberParam,
    body: UpdateMemberSchema,
    errors: [422],
    errorNotes: {
      403: "Also AUTH_INSUFFICIENT_ROLE: only owners change owners",
      422: "The last owner cannot be demoted",
    },
    responses: { 200: { description: "The member", schema: MemberSchema } },
    handler: async ({ params, body, principal, clients, clientIp }) => {
      const res = await clients.identity.updateMemberRole({
        organization_id: principal!.organizationId,
        user_id: params.member_id,
        role: body.role,
        actor: actorOf(principal!, clientIp),
        changer_user_id: actingUserId(principal!),
      });
      return { status: 200, body: memberJson(res.member!) };
    },
  }),
  route({
    method: "delete",
    path: "/v1/members/:member_id",
    operationId: "removeMember",
    summary: "Remove a member (or withdraw an invitation); their sessions here end at once",
    tag: "Members",
    access: { kind: "scope", scope: "admin" },
    rateClass: "writes",
    params: MemberParam,
    errors: [422],
    errorNotes: {
      403: "Also AUTH_INSUFFICIENT_ROLE: only owners remove owners",
      422: "The last owner cannot be removed",
    },
    responses: noContent,
    handler: async ({ params, principal, clients, clientIp }) => {
      await clients.identity.removeMember({
        organization_id: principal!.organizationId,
        user_id: params.member_id,
        actor: actorOf(principal!, clientIp),
        remover_user_id: actingUserId(principal!),
      });
      return { status: 204 };
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
