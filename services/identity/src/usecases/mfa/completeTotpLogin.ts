import { AppError } from "@verdict/kit";
import { hashToken, normalizeRecoveryCode } from "../../domain/secrets.js";
import { acceptedStep } from "../../domain/totp.js";
import { hasSecondFactor } from "../../domain/mfa.js";
import type { IdentityDeps } from "../../deps.js";
import type { UserRecord } from "../../repos/accountRepo.js";
import { recordAudit } from "../audit/recordAudit.js";
import { signInFailed } from "../sessions/login.js";
import type { SessionView } from "../sessions/sessionView.js";
import { startSession } from "../sessions/startSession.js";
import { startAttempt, throttleIds } from "../sessions/throttle.js";

export interface CompleteTotpLoginCommand {
  mfaToken: string;
  /** A 6-digit TOTP code, or a recovery code. */
  code: string;
  clientIp: string;
  userAgent: string;
}

const challengeGone = () =>
  new AppError("unauthorized", "AUTH_INVALID_SESSION", "The sign-in challenge is not valid or expired: sign in again");

/**
 * The second step of a sign-in: a TOTP code (never one of an already used step) or an unused
 * recovery code. Wrong codes count towards the account's lockout like wrong passwords. Answers a
 * new session; the challenge is spent either way once it succeeds.
 */
export async function completeTotpLogin(
  deps: IdentityDeps,
  cmd: CompleteTotpLoginCommand,
): Promise<{ token: string; session: SessionView }> {
  if (!/^vdt_mfa_[0-9A-Za-z]{43}$/.test(cmd.mfaToken)) throw challengeGone();
  const challenge = await deps.sessions.byHash(hashToken(cmd.mfaToken));
  const now = deps.clock.now();
  if (
    !challenge ||
    challenge.state !== "mfa_pending" ||
    challenge.revoked_at ||
    Date.parse(challenge.expires_at) <= now.getTime()
  )
    throw challengeGone();
  const user = await deps.accounts.byId(challenge.user_id);
  if (!user || !hasSecondFactor(user)) throw challengeGone();
  const attempt = await startAttempt(deps, throttleIds(user.email, cmd.clientIp));
  const method = await consumeSecondFactor(deps, user, cmd.code, now.getTime());
  if (!method) {
    const membership = await deps.members.find(challenge.organization_id, user.id);
    await signInFailed(deps, {
      attempt,
      user,
      membership: membership ?? undefined,
      clientIp: cmd.clientIp,
      reason: "mfa_code",
    });
    throw new AppError("unauthorized", "AUTH_INVALID_MFA_CODE", "The code is wrong, expired or was used already");
  }
  // Spent: a challenge yields one session.
  if (!(await deps.sessions.revoke(challenge.id, now.toISOString()))) throw challengeGone();
  await attempt.signInCompleted();
  const actor = { type: "user" as const, id: user.id, ip: cmd.clientIp };
  if (method === "recovery_code") {
    await recordAudit(deps, {
      organizationId: challenge.organization_id,
      type: "mfa.recovery_code_used",
      actor,
      targetType: "user",
      targetId: user.id,
      data: { remaining: user.recovery_code_hashes.length - 1 },
    });
  }
  const started = await startSession(deps, {
    userId: user.id,
    organizationId: challenge.organization_id,
    clientIp: cmd.clientIp,
    userAgent: cmd.userAgent,
  });
  await recordAudit(deps, {
    organizationId: challenge.organization_id,
    type: "signin.succeeded",
    actor,
    targetType: "session",
    targetId: started.session.id,
    data: { mfa: method },
  });
  return started;
}

async function consumeSecondFactor(
  deps: IdentityDeps,
  user: UserRecord,
  code: string,
  nowMs: number,
): Promise<"totp" | "recovery_code" | undefined> {
  const secret = user.totp_sealed ? deps.totpBox.open(user.totp_sealed, `totp:${user.id}`) : null;
  const step = secret ? acceptedStep(secret, code.trim(), nowMs, user.totp_last_step) : null;
  if (step !== null) {
    // Conditional on the last step seen: two requests with the same code cannot both pass.
    return (await deps.accounts.spendTotpStep(user, step)) ? "totp" : undefined;
  }
  const hash = hashToken(normalizeRecoveryCode(code));
  if (!user.recovery_code_hashes.includes(hash)) return undefined;
  const left = user.recovery_code_hashes.filter((h) => h !== hash);
  // Conditional on how many were left: two requests with the same code cannot both pass.
  return (await deps.accounts.spendRecoveryCode(user, left)) ? "recovery_code" : undefined;
}
