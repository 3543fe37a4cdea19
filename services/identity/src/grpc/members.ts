// gRPC handlers of members: an organization's people, their invitations and roles. Map proto <->
// use cases, nothing else.
import { commandOf } from "@verdict/kit";
import type { identityV1 } from "@verdict/proto";
import { acceptInvitation } from "../usecases/members/acceptInvitation.js";
import { inviteMember } from "../usecases/members/inviteMember.js";
import { listMembers } from "../usecases/members/listMembers.js";
import type { MemberView } from "../usecases/members/memberView.js";
import { removeMember } from "../usecases/members/removeMember.js";
import { updateMemberRole } from "../usecases/members/updateMemberRole.js";
import type { IdentityDeps } from "../deps.js";
import { fromActor, type IdentityHandlers } from "./mapping.js";

function toMember(m: MemberView): identityV1.Member {
  return { ...m, invitation_expires_at: m.invitation_expires_at ?? undefined };
}

export function memberHandlers(
  deps: IdentityDeps,
): IdentityHandlers<"listMembers" | "inviteMember" | "updateMemberRole" | "removeMember" | "acceptInvitation"> {
  return {
    async listMembers(req) {
      return { members: (await listMembers(deps, commandOf(req))).map(toMember) };
    },
    async inviteMember(req) {
      const res = await inviteMember(deps, { ...commandOf(req, ["inviter_user_id"]), actor: fromActor(req.actor) });
      return { member: toMember(res.member), invitation_token: res.token };
    },
    async updateMemberRole(req) {
      const member = await updateMemberRole(deps, {
        ...commandOf(req, ["changer_user_id"]),
        actor: fromActor(req.actor),
      });
      return { member: toMember(member) };
    },
    async removeMember(req) {
      await removeMember(deps, { ...commandOf(req, ["remover_user_id"]), actor: fromActor(req.actor) });
      return {};
    },
    async acceptInvitation(req) {
      const res = await acceptInvitation(deps, commandOf(req, ["session_user_id"]));
      return { member: toMember(res.member), organization_id: res.organizationId };
    },
  };
}
