import { errors, newId } from "@verdict/kit";
import { DuplicateKeyError } from "@verdict/store";
import { INVITATION_TTL_MS, isRole, normalizeEmail, type Role } from "../../domain/member.js";
import { hashToken, newToken } from "../../domain/secrets.js";
import type { IdentityDeps } from "../../deps.js";
import type { MemberRecord } from "../../repos/memberRepo.js";
import { findOrCreateAccount } from "../accounts/findOrCreateAccount.js";
import { recordAudit, type Actor } from "../audit/recordAudit.js";
import { assertMayChangeRole } from "./authority.js";
import { memberView, type MemberView } from "./memberView.js";

export interface InviteMemberCommand {
  organizationId: string;
  email: string;
  role: string;
  actor: Actor;
  /** The inviting member; unset when an API key (or the operator) invites. */
  inviterUserId?: string;
}

/**
 * Invites someone by link: the token is answered once (the caller shows it as a URL), only its
 * hash is kept, and it works once within 7 days. Inviting again while the invitation is open
 * replaces it (the earlier link stops working).
 */
export async function inviteMember(
  deps: IdentityDeps,
  cmd: InviteMemberCommand,
): Promise<{ member: MemberView; token: string }> {
  if (!isRole(cmd.role))
    throw errors.unprocessable([
      { field: "role", code: "INVALID_ENUM", message: "role must be one of: owner, admin, member, viewer" },
    ]);
  const role: Role = cmd.role;
  const org = await deps.orgs.find(cmd.organizationId);
  if (!org) throw errors.notFound("organization", cmd.organizationId);
  await assertMayChangeRole(deps, {
    organizationId: cmd.organizationId,
    actingUserId: cmd.inviterUserId,
    actor: cmd.actor,
    current: undefined,
    next: role,
  });
  const email = normalizeEmail(cmd.email);
  const now = deps.clock.now();
  // Invited to two organizations at the same moment: one account all the same.
  const user = await findOrCreateAccount(deps, { email, name: "", id: newId("user"), createdAt: now.toISOString() });
  const token = newToken("inv");
  const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS).toISOString();
  const existing = await deps.members.find(cmd.organizationId, user.id);
  let membership: MemberRecord;
  if (existing?.status === "active") throw errors.alreadyExists("member", user.id);
  if (existing) {
    const updated = await deps.members.renewInvitation(existing, {
      role,
      invitation_hash: hashToken(token),
      invitation_expires_at: expiresAt,
    });
    if (!updated) throw errors.alreadyExists("member", user.id);
    membership = updated;
  } else {
    membership = {
      id: deps.members.membershipId(cmd.organizationId, user.id),
      organization_id: cmd.organizationId,
      user_id: user.id,
      role,
      status: "invited",
      invitation_hash: hashToken(token),
      invitation_expires_at: expiresAt,
      created_at: now.toISOString(),
      version: 1,
    };
    try {
      await deps.members.insert(membership);
    } catch (err) {
      if (err instanceof DuplicateKeyError) throw errors.alreadyExists("member", user.id);
      throw err;
    }
  }
  await recordAudit(deps, {
    organizationId: cmd.organizationId,
    type: "member.invited",
    actor: cmd.actor,
    targetType: "user",
    targetId: user.id,
    data: { email, role, expires_at: expiresAt },
  });
  deps.logger.info({ organization_id: cmd.organizationId, user_id: user.id, role }, "member invited");
  return { member: memberView(membership, user), token };
}
