import { AppError, errors } from "@verdict/kit";
import { mayResetFrom } from "../../domain/account.js";
import { passwordProblems } from "../../domain/passwordRules.js";
import { hashToken } from "../../domain/secrets.js";
import type { IdentityDeps } from "../../deps.js";
import { accountStanding } from "../accounts/accountStanding.js";
import { recordAudit } from "../audit/recordAudit.js";
import { startAttempt, throttleIds } from "../sessions/throttle.js";

export interface ResetPasswordCommand {
  token: string;
  newPassword: string;
  clientIp: string;
}

const invalidLink = () =>
  new AppError(
    "not_found",
    "RESOURCE_NOT_FOUND",
    "This password-reset link is not valid: it was used already, replaced by a newer one, or never issued",
    { resource_type: "password_reset" },
  );

/**
 * Redeems a password-reset link, once: a new password, and every session and OAuth grant of the
 * person ends. Counted under the sign-in throttles. The binding rule is checked again: a link
 * issued before the account came to belong elsewhere too no longer works.
 */
export async function resetPassword(deps: IdentityDeps, cmd: ResetPasswordCommand): Promise<{ sessionsEnded: number }> {
  const problems = passwordProblems(cmd.newPassword, "new_password");
  if (problems.length) throw errors.unprocessable(problems);
  const tokenHash = /^vdt_pwr_[0-9A-Za-z]{43}$/.test(cmd.token) ? hashToken(cmd.token) : null;
  const user = tokenHash ? await deps.accounts.byPasswordResetHash(tokenHash) : null;
  // Unknown links count against the address like wrong passwords.
  const attempt = await startAttempt(deps, throttleIds(user?.email ?? "", cmd.clientIp));
  if (!user || !tokenHash) throw invalidLink();
  const now = deps.clock.now();
  if (!user.password_reset_expires_at || Date.parse(user.password_reset_expires_at) <= now.getTime())
    throw new AppError(
      "deleted",
      "PASSWORD_RESET_EXPIRED",
      `This password-reset link expired at ${user.password_reset_expires_at}; ask an admin for a new one`,
      { resource_type: "password_reset" },
    );
  const organizationId = user.password_reset_org ?? "";
  if (!mayResetFrom(await accountStanding(deps, user), organizationId)) throw invalidLink();
  const hash = await deps.passwords.hash(cmd.newPassword);
  if (!(await deps.accounts.redeemPasswordReset(user.id, tokenHash, hash))) throw invalidLink();
  // No sign-in (a second factor is still asked): earlier failures keep counting.
  await attempt.checkPassed();
  const at = now.toISOString();
  const sessionsEnded = await deps.sessions.revokeSessionsOf(user.id, undefined, at);
  for (const m of await deps.members.activeMembershipsOf(user.id))
    await deps.oauth.revokeArtifactsOf(deps.members.membershipId(m.organization_id, user.id));
  await recordAudit(deps, {
    organizationId,
    type: "password.reset",
    actor: { type: "user", id: user.id, ip: cmd.clientIp },
    targetType: "user",
    targetId: user.id,
    data: { sessions_ended: sessionsEnded },
  });
  return { sessionsEnded };
}
