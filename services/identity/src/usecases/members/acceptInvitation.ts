import { AppError, errors } from "@verdict/kit";
import { joinProof } from "../../domain/account.js";
import { hashToken } from "../../domain/secrets.js";
import type { IdentityDeps } from "../../deps.js";
import { accountStanding } from "../accounts/accountStanding.js";
import { passwordProblems } from "../../domain/passwordRules.js";
import { recordAudit } from "../audit/recordAudit.js";
import { startAttempt, throttleIds } from "../sessions/throttle.js";
import { memberView, type MemberView } from "./memberView.js";

export interface AcceptInvitationCommand {
  token: string;
  name: string;
  password: string;
  clientIp: string;
  /** The signed-in person redeeming it, if any (proof of control of the account). */
  sessionUserId?: string;
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
 * Redeems an invitation, once, under the account-binding rule (domain/account.ts): a brand-new
 * account chooses its name and password; an existing one proves it is theirs, by being signed in
 * as it or with its password. A link never sets a credential on an existing account: one without
 * a password (made by SCIM or an SSO sign-in) joins only while signed in through its SSO.
 */
export async function acceptInvitation(
  deps: IdentityDeps,
  cmd: AcceptInvitationCommand,
): Promise<{ member: MemberView; organizationId: string }> {
  if (!/^vdt_inv_[0-9A-Za-z]{43}$/.test(cmd.token)) throw invalidLink();
  const invitation = await deps.members.openInvitation(hashToken(cmd.token));
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
  const user = await deps.accounts.byId(invitation.user_id);
  if (!user) throw invalidLink();
  if (cmd.sessionUserId && cmd.sessionUserId !== user.id)
    throw new AppError(
      "forbidden",
      "AUTH_INVITATION_ACCOUNT_MISMATCH",
      "This invitation is for another account than the one signed in: sign out, or open it signed in as the invited address",
    );
  const proof = cmd.sessionUserId ? "signed_in" : joinProof(await accountStanding(deps, user));
  if (proof === "new_password") {
    const problems = passwordProblems(cmd.password, "password");
    if (!cmd.name.trim())
      problems.unshift({ field: "name", code: "REQUIRED" as const, message: "name is required to join" });
    if (problems.length) throw errors.unprocessable(problems);
  } else if (proof === "session") {
    throw new AppError(
      "forbidden",
      "AUTH_SIGN_IN_REQUIRED",
      "This address's account signs in through its organization's single sign-on: sign in that way first, then open this invitation link again",
    );
  } else if (proof === "password") {
    // Throttled like sign-in: the link must not become a way to guess the account's password.
    const attempt = await startAttempt(deps, throttleIds(user.email, cmd.clientIp));
    if (!(await deps.passwords.verify(user.password_hash!, cmd.password)))
      throw new AppError(
        "unauthorized",
        "AUTH_INVALID_CREDENTIALS",
        "You already have a Verdict account: give its password to join this organization (or sign in first)",
      );
    // No sign-in: earlier failures (wrong second-factor codes) keep counting.
    await attempt.checkPassed();
  }
  const newcomer = proof === "new_password";
  const passwordHash = newcomer ? await deps.passwords.hash(cmd.password) : null;
  // Single use: only the request that flips the invitation wins.
  const joined = await deps.members.acceptInvitation(invitation, invitation.invitation_hash);
  if (!joined) throw invalidLink();
  // Conditional on still having no password: a race with another first password loses.
  const updatedUser = newcomer
    ? ((await deps.accounts.setFirstPassword(user.id, cmd.name.trim(), passwordHash)) ?? user)
    : user;
  await recordAudit(deps, {
    organizationId: invitation.organization_id,
    type: "member.joined",
    actor: { type: "user", id: user.id, ip: cmd.clientIp },
    targetType: "user",
    targetId: user.id,
    data: { role: joined.role, new_account: newcomer, proof },
  });
  return { member: memberView(joined, updatedUser), organizationId: invitation.organization_id };
}
