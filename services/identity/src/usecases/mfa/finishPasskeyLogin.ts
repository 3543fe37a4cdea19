import { verifyAuthenticationResponse, type AuthenticationResponseJSON } from "@simplewebauthn/server";
import type { IdentityDeps } from "../../deps.js";
import { recordAudit } from "../audit/recordAudit.js";
import { signInFailed } from "../sessions/login.js";
import type { SessionView } from "../sessions/sessionView.js";
import { startSession } from "../sessions/startSession.js";
import { startAttempt, throttleIds } from "../sessions/throttle.js";
import { challengeGone, pendingChallenge } from "./pendingChallenge.js";
import type { RelyingParty } from "./startPasskeyRegistration.js";
import { changePasskeys } from "./changePasskeys.js";
import { orRefused, parseResponse, passkeyRefused } from "./webauthnErrors.js";

export interface FinishPasskeyLoginCommand {
  mfaToken: string;
  rp: RelyingParty;
  responseJson: string;
  clientIp: string;
  userAgent: string;
}

/**
 * Completes a sign-in with a passkey's signature over the challenge (used once). The signature
 * counter must move forward when the authenticator keeps one (a cloned key is refused).
 */
export async function finishPasskeyLogin(
  deps: IdentityDeps,
  cmd: FinishPasskeyLoginCommand,
): Promise<{ token: string; session: SessionView }> {
  const { challenge, user } = await pendingChallenge(deps, cmd.mfaToken);
  const response = parseResponse<AuthenticationResponseJSON>(cmd.responseJson);
  const expected = challenge.webauthn_challenge;
  if (!expected) throw passkeyRefused("ask for options first");
  const attempt = await startAttempt(deps, throttleIds(user.email, cmd.clientIp));
  await deps.sessions.setWebauthnChallenge(challenge.id, null);
  const passkey = (user.passkeys ?? []).find((p) => p.id === response.id);
  const fail = async (why: string) => {
    const membership = await deps.members.find(challenge.organization_id, user.id);
    await signInFailed(deps, {
      attempt,
      user,
      membership: membership ?? undefined,
      clientIp: cmd.clientIp,
      reason: "passkey",
    });
    return passkeyRefused(why);
  };
  if (!passkey) throw await fail("not one of this person's passkeys");
  const verified = await orRefused(() =>
    verifyAuthenticationResponse({
      response,
      expectedChallenge: expected,
      expectedOrigin: cmd.rp.origin,
      expectedRPID: cmd.rp.rpId,
      credential: {
        id: passkey.id,
        publicKey: new Uint8Array(Buffer.from(passkey.public_key, "base64url")),
        counter: passkey.counter,
        transports: passkey.transports as never,
      },
      requireUserVerification: false,
    }),
  ).catch(async (err: Error) => {
    throw await fail(err.message);
  });
  if (!verified.verified) throw await fail("the signature did not verify");
  const now = deps.clock.now().toISOString();
  await changePasskeys(deps, {
    userId: user.id,
    change: (fresh) => ({
      passkeys: (fresh.passkeys ?? []).map((p) =>
        p.id === passkey.id
          ? {
              ...p,
              counter: verified.authenticationInfo.newCounter,
              last_used_at: now,
              device_type: verified.authenticationInfo.credentialDeviceType,
              backed_up: verified.authenticationInfo.credentialBackedUp,
            }
          : p,
      ),
    }),
  });
  if (!(await deps.sessions.revoke(challenge.id, now))) throw challengeGone();
  await attempt.signInCompleted();
  const started = await startSession(deps, {
    userId: user.id,
    organizationId: challenge.organization_id,
    clientIp: cmd.clientIp,
    userAgent: cmd.userAgent,
  });
  await recordAudit(deps, {
    organizationId: challenge.organization_id,
    type: "signin.succeeded",
    actor: { type: "user", id: user.id, ip: cmd.clientIp },
    targetType: "session",
    targetId: started.session.id,
    data: { mfa: "webauthn" },
  });
  return started;
}
