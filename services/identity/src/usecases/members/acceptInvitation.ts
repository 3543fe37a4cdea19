import { AppError, errors } from "@verdict/kit";
import { hashToken } from "../../domain/secrets.js";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../../passwords.js";
import type { IdentityDeps } from "../../deps.js";
import { recordAudit } from "../audit/recordAudit.js";
import { memberView, type MemberView } from "./memberView.js";

export interface AcceptInvitationCommand {
  token: string;
  name: string;
  password: string;
  clientIp: string;
}

const invalidLink = () =>
  new AppError(
    "not_found",
    "RESOURCE_NOT_FOUND",
    "This invitation link is not valid: it was used already, replaced by a newer one, withdrawn, or never issued",
    {
      resource_type: "invitation",
    },
  );

/**
 * Redeems an invitation, once. Someone new chooses a name and password; someone who already has
 * an account (invited to another organization before) proves it with their password.
 */
export async function acceptInvitation(
  deps: IdentityDeps,
  cmd: AcceptInvitationCommand,
): Promise<{ member: MemberView; organizationId: string }> {
  if (!/^vdt_inv_[0-9A-Za-z]{43}$/.test(cmd.token)) throw invalidLink();
  const invitation = await deps.repo.openInvitation(hashToken(cmd.token));
  if (!invitation) throw invalidLink();
  const now = deps.clock.now();
  if (invitation.invitation_expires_at && Date.parse(invitation.invitation_expires_at) <= now.getTime()) {
    throw new AppError(
      "deleted",
      "INVITATION_EXPIRED",
      `This invitation expired at ${invitation.invitation_expires_at}; ask for a new one`,
      { resource_type: "invitation" },
    );
  }
  const user = await deps.repo.userById(invitation.user_id);
  if (!user) throw invalidLink();
  const newcomer = user.password_hash === null;
  if (newcomer) {
    const problems = [];
    if (!cmd.name.trim())
      problems.push({ field: "name", code: "REQUIRED" as const, message: "name is required to join" });
    if (cmd.password.length < MIN_PASSWORD_LENGTH)
      problems.push({
        field: "password",
        code: "MIN_SIZE_REQUIRED" as const,
        message: `password must be at least ${MIN_PASSWORD_LENGTH} characters`,
        min: MIN_PASSWORD_LENGTH,
      });
    if (cmd.password.length > MAX_PASSWORD_LENGTH)
      problems.push({
        field: "password",
        code: "MAX_SIZE_EXCEEDED" as const,
        message: `password must be at most ${MAX_PASSWORD_LENGTH} characters`,
        max: MAX_PASSWORD_LENGTH,
      });
    if (problems.length) throw errors.unprocessable(problems);
  } else if (!(await deps.passwords.verify(user.password_hash!, cmd.password))) {
    throw new AppError(
      "unauthorized",
      "AUTH_INVALID_CREDENTIALS",
      "You already have a Verdict account: give its password to join this organization",
    );
  }
  const passwordHash = newcomer ? await deps.passwords.hash(cmd.password) : null;
  // Single use: only the request that flips the invitation wins.
  const joined = await deps.repo.acceptInvitation(invitation, invitation.invitation_hash);
  if (!joined) throw invalidLink();
  const updatedUser = newcomer
    ? ((await deps.repo.setFirstPassword(user.id, cmd.name.trim(), passwordHash)) ?? user)
    : user;
  await recordAudit(deps, {
    organizationId: invitation.organization_id,
    type: "member.joined",
    actor: { type: "user", id: user.id, ip: cmd.clientIp },
    targetType: "user",
    targetId: user.id,
    data: { role: joined.role, new_account: newcomer },
  });
  return { member: memberView(joined, updatedUser), organizationId: invitation.organization_id };
}
