import { AppError, errors } from "@verdict/kit";
import { passwordProblems } from "../../domain/passwordRules.js";
import type { IdentityDeps } from "../../deps.js";
import { recordAudit } from "../audit/recordAudit.js";
import { startAttempt, throttleIds } from "../sessions/throttle.js";

export interface ChangePasswordCommand {
  /** The signed-in session making the change: it stays, every other session of the person ends. */
  sessionId: string;
  userId: string;
  organizationId: string;
  currentPassword: string;
  newPassword: string;
  clientIp: string;
}

/**
 * The signed-in person changes their password. The current one is required (a session left open
 * is not enough) and checked under the sign-in throttles; every other session of the person, in
 * every organization, ends.
 */
export async function changePassword(
  deps: IdentityDeps,
  cmd: ChangePasswordCommand,
): Promise<{ sessionsEnded: number }> {
  const problems = passwordProblems(cmd.newPassword, "new_password");
  if (problems.length) throw errors.unprocessable(problems);
  const user = await deps.accounts.byId(cmd.userId);
  if (!user) throw errors.notFound("user", cmd.userId);
  if (!user.password_hash)
    throw errors.unprocessable([
      {
        field: "current_password",
        code: "INVALID_FORMAT",
        message: "This account has no password: it signs in through its organization's single sign-on",
      },
    ]);
  const attempt = await startAttempt(deps, throttleIds(user.email, cmd.clientIp));
  if (!(await deps.passwords.verify(user.password_hash, cmd.currentPassword)))
    throw new AppError("unauthorized", "AUTH_INVALID_CREDENTIALS", "The current password is wrong");
  await attempt.checkPassed();
  const hash = await deps.passwords.hash(cmd.newPassword);
  if (!(await deps.accounts.setPassword(user.id, user.password_hash, hash)))
    throw new AppError("conflict", "PASSWORD_CHANGED_MEANWHILE", "The password was changed meanwhile: sign in again");
  const sessionsEnded = await deps.sessions.revokeSessionsOf(
    user.id,
    undefined,
    deps.clock.now().toISOString(),
    cmd.sessionId,
  );
  await recordAudit(deps, {
    organizationId: cmd.organizationId,
    type: "password.changed",
    actor: { type: "user", id: user.id, ip: cmd.clientIp },
    targetType: "user",
    targetId: user.id,
    data: { sessions_ended: sessionsEnded },
  });
  return { sessionsEnded };
}
