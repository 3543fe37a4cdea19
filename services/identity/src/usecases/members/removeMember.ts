import { errors } from "@verdict/kit";
import { leavesNoOwner } from "../../domain/member.js";
import type { IdentityDeps } from "../../deps.js";
import { recordAudit, type Actor } from "../audit/recordAudit.js";
import { revokeKeysCreatedBy } from "../apiKeys/keysOfPerson.js";
import { assertMayChangeRole } from "./authority.js";

export interface RemoveMemberCommand {
  organizationId: string;
  userId: string;
  actor: Actor;
  removerUserId?: string;
}

/** Removes a member (or withdraws an open invitation) and ends their sessions in the organization. */
export async function removeMember(deps: IdentityDeps, cmd: RemoveMemberCommand): Promise<void> {
  const membership = await deps.members.find(cmd.organizationId, cmd.userId);
  if (!membership) throw errors.notFound("member", cmd.userId);
  await assertMayChangeRole(deps, {
    organizationId: cmd.organizationId,
    actingUserId: cmd.removerUserId,
    actor: cmd.actor,
    current: membership.role,
    next: undefined,
  });
  if (
    membership.status === "active" &&
    leavesNoOwner(await deps.members.activeOwnersCount(cmd.organizationId), membership.role, undefined)
  ) {
    throw errors.unprocessable(
      [
        {
          field: "member_id",
          code: "INVALID_ENUM",
          message: "This is the organization's last owner: make someone else owner first",
        },
      ],
      "The last owner cannot be removed",
    );
  }
  if (!(await deps.members.delete(membership))) throw errors.unavailable("The member changed meanwhile; retry");
  const ended = await deps.sessions.revokeSessionsOf(cmd.userId, cmd.organizationId, deps.clock.now().toISOString());
  // The member's OAuth grants here end too: their codes, access and refresh tokens.
  const oauthArtifacts = await deps.oauth.revokeArtifactsOf(membership.id);
  // And the API keys they created here (as SCIM deactivation does): no key outlives its person.
  const apiKeys = await revokeKeysCreatedBy(deps, {
    organizationId: cmd.organizationId,
    userId: cmd.userId,
    actor: cmd.actor,
  });
  await recordAudit(deps, {
    organizationId: cmd.organizationId,
    type: "member.removed",
    actor: cmd.actor,
    targetType: "user",
    targetId: cmd.userId,
    data: {
      role: membership.role,
      was: membership.status,
      sessions_ended: ended,
      oauth_artifacts_revoked: oauthArtifacts,
      api_keys_revoked: apiKeys,
    },
  });
}
