import { AppError, newId } from "@verdict/kit";
import { normalizeEmail } from "../../domain/member.js";
import { hasSecondFactor, mfaMethods } from "../../domain/mfa.js";
import { hashToken, newToken } from "../../domain/secrets.js";
import { MFA_CHALLENGE_TTL_MS } from "../../domain/session.js";
import type { IdentityDeps } from "../../deps.js";
import type { MemberRecord } from "../../repos/memberRepo.js";
import type { UserRecord } from "../../repos/accountRepo.js";
import { recordAudit } from "../audit/recordAudit.js";
import { startSession } from "./startSession.js";
import { assertPasswordSignInAllowed } from "../sso/enforce.js";
import type { SessionView } from "./sessionView.js";
import { startAttempt, throttleIds, type Attempt } from "./throttle.js";

export interface LoginCommand {
  email: string;
  password: string;
  clientIp: string;
  userAgent: string;
  /** Which organization to sign in to; unset: the oldest membership. */
  organizationId?: string;
}

export type LoginResult =
  { kind: "session"; token: string; session: SessionView } | { kind: "mfa"; mfaToken: string; methods: string[] };

export const invalidCredentials = () =>
  new AppError("unauthorized", "AUTH_INVALID_CREDENTIALS", "The email or password is wrong");

/**
 * Email and password sign-in. Unknown emails cost the same argon2 work as wrong passwords, and
 * both answer the same error; failures lock the account and the address out progressively.
 */
export async function login(deps: IdentityDeps, cmd: LoginCommand): Promise<LoginResult> {
  const email = normalizeEmail(cmd.email);
  // Counted before the password is checked: concurrent guesses cannot outrun the lockout.
  const attempt = await startAttempt(deps, throttleIds(email, cmd.clientIp));
  const user = await deps.accounts.byEmail(email);
  const passwordOk = user?.password_hash
    ? await deps.passwords.verify(user.password_hash, cmd.password)
    : await deps.passwords.verifyAgainstNothing(cmd.password);
  const memberships = user ? await deps.members.activeMembershipsOf(user.id) : [];
  const membership = cmd.organizationId
    ? memberships.find((m) => m.organization_id === cmd.organizationId)
    : memberships[0];
  if (!passwordOk || !user || !membership) {
    await signInFailed(deps, {
      attempt,
      user,
      membership: membership ?? memberships[0],
      clientIp: cmd.clientIp,
      reason: passwordOk ? "not_a_member" : "password",
    });
    throw invalidCredentials();
  }
  // With a second factor to come the account's count stays (wrong codes keep counting across
  // password rounds): only this attempt is given back. Cleared once the whole sign-in succeeds.
  if (hasSecondFactor(user)) await attempt.checkPassed();
  else await attempt.signInCompleted();
  await assertPasswordSignInAllowed(deps, { membership, clientIp: cmd.clientIp });
  if (hasSecondFactor(user)) {
    const mfaToken = newToken("mfa");
    const now = deps.clock.now();
    await deps.sessions.insert({
      id: newId("ses"),
      hash: hashToken(mfaToken),
      user_id: user.id,
      organization_id: membership.organization_id,
      state: "mfa_pending",
      created_at: now.toISOString(),
      last_seen_at: now.toISOString(),
      expires_at: new Date(now.getTime() + MFA_CHALLENGE_TTL_MS).toISOString(),
      revoked_at: null,
      ip: cmd.clientIp,
      user_agent: cmd.userAgent.slice(0, 500),
    });
    return { kind: "mfa", mfaToken, methods: mfaMethods(user) };
  }
  const { token, session } = await startSession(deps, {
    userId: user.id,
    organizationId: membership.organization_id,
    clientIp: cmd.clientIp,
    userAgent: cmd.userAgent,
  });
  await recordAudit(deps, {
    organizationId: membership.organization_id,
    type: "signin.succeeded",
    actor: { type: "user", id: user.id, ip: cmd.clientIp },
    targetType: "session",
    targetId: session.id,
    data: { mfa: "none" },
  });
  return { kind: "session", token, session };
}

export interface SignInFailedCommand {
  /** The attempt, counted already. */
  attempt: Attempt;
  user: UserRecord | null;
  membership: MemberRecord | undefined;
  clientIp: string;
  reason: string;
}

/** Records a failed attempt (counted already) in the audit log of the organization the person belongs to. */
export async function signInFailed(
  deps: IdentityDeps,
  { attempt, user, membership, clientIp, reason }: SignInFailedCommand,
): Promise<void> {
  const locked = attempt.locksAccount;
  if (!user || !membership) return;
  const actor = { type: "user" as const, id: user.id, ip: clientIp };
  await recordAudit(deps, {
    organizationId: membership.organization_id,
    type: "signin.failed",
    actor,
    targetType: "user",
    targetId: user.id,
    data: { reason },
  });
  if (locked)
    await recordAudit(deps, {
      organizationId: membership.organization_id,
      type: "signin.locked",
      actor,
      targetType: "user",
      targetId: user.id,
      data: {},
    });
}
