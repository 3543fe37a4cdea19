import { AppError } from "@verdict/kit";
import { hashToken } from "../../domain/secrets.js";
import type { IdentityDeps } from "../../deps.js";
import type { SessionRecord } from "../../repos/sessionRepo.js";
import type { UserRecord } from "../../repos/accountRepo.js";

export const challengeGone = () =>
  new AppError("unauthorized", "AUTH_INVALID_SESSION", "The sign-in challenge is not valid or expired: sign in again");

/** The sign-in waiting for its second factor that an mfa_token names, and its person. */
export async function pendingChallenge(
  deps: IdentityDeps,
  mfaToken: string,
): Promise<{ challenge: SessionRecord; user: UserRecord }> {
  if (!/^vdt_mfa_[0-9A-Za-z]{43}$/.test(mfaToken)) throw challengeGone();
  const challenge = await deps.sessions.byHash(hashToken(mfaToken));
  if (
    !challenge ||
    challenge.state !== "mfa_pending" ||
    challenge.revoked_at ||
    Date.parse(challenge.expires_at) <= deps.clock.now().getTime()
  )
    throw challengeGone();
  const user = await deps.accounts.byId(challenge.user_id);
  if (!user) throw challengeGone();
  return { challenge, user };
}
