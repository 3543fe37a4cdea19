import { errors } from "@verdict/kit";
import { isRole, leavesNoOwner } from "../../domain/member.js";
import type { IdentityDeps } from "../../deps.js";
import { recordAudit, type Actor } from "../audit/recordAudit.js";
import { announceCreatorRoleChanged } from "../apiKeys/keysOfPerson.js";
import { assertMayChangeRole } from "./authority.js";
import { memberView, type MemberView } from "./memberView.js";

export interface UpdateMemberRoleCommand {
  organizationId: string;
  userId: string;
  role: string;
  actor: Actor;
  changerUserId?: string;
}

/**
 * Changes a member's role. Sessions, OAuth tokens and the keys the member created read the role
 * at every verification, so it applies at once.
 */
export async function updateMemberRole(deps: IdentityDeps, cmd: UpdateMemberRoleCommand): Promise<MemberView> {
  if (!isRole(cmd.role))
    throw errors.unprocessable([
      { field: "role", code: "INVALID_ENUM", message: "role must be one of: owner, admin, member, viewer" },
    ]);
  const membership = await deps.members.find(cmd.organizationId, cmd.userId);
  const user = membership ? await deps.accounts.byId(cmd.userId) : null;
  if (!membership || !user) throw errors.notFound("member", cmd.userId);
  await assertMayChangeRole(deps, {
    organizationId: cmd.organizationId,
    actingUserId: cmd.changerUserId,
    actor: cmd.actor,
    current: membership.role,
    next: cmd.role,
  });
  if (
    membership.status === "active" &&
    leavesNoOwner(await deps.members.activeOwnersCount(cmd.organizationId), membership.role, cmd.role)
  ) {
    throw errors.unprocessable(
      [
        {
          field: "role",
          code: "INVALID_ENUM",
          message: "This is the organization's last owner: make someone else owner first",
        },
      ],
      "The last owner cannot be demoted",
    );
  }
  if (membership.role === cmd.role) return memberView(membership, user);
  const updated = await deps.members.changeRole(membership, cmd.role);
  if (!updated) throw errors.unavailable("The member changed meanwhile; retry");
  // Their keys act within the new role from the next verification; gateways forget cached ones.
  await announceCreatorRoleChanged(deps, { organizationId: cmd.organizationId, userId: user.id });
  await recordAudit(deps, {
    organizationId: cmd.organizationId,
    type: "member.role_changed",
    actor: cmd.actor,
    targetType: "user",
    targetId: user.id,
    data: { from: membership.role, to: cmd.role },
  });
  return memberView(updated, user);
}
