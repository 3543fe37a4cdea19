import { verifyRegistrationResponse, type RegistrationResponseJSON } from "@simplewebauthn/server";
import { errors } from "@verdict/kit";
import { hasSecondFactor } from "../../domain/mfa.js";
import { hashToken, newRecoveryCodes } from "../../domain/secrets.js";
import type { IdentityDeps } from "../../deps.js";
import type { PasskeyRecord } from "../../repos/accountRepo.js";
import { recordAudit } from "../audit/recordAudit.js";
import type { SessionView } from "../sessions/sessionView.js";
import { renewSession } from "../sessions/renewSession.js";
import { activeSession } from "../sessions/verifySession.js";
import type { RelyingParty } from "./startPasskeyRegistration.js";
import { changePasskeys } from "./changePasskeys.js";
import { orRefused, parseResponse, passkeyRefused } from "./webauthnErrors.js";

export interface FinishPasskeyRegistrationCommand {
  sessionToken: string;
  rp: RelyingParty;
  responseJson: string;
  name: string;
  clientIp: string;
  userAgent: string;
}

/**
 * Verifies the browser's attestation against the session's challenge (used once), stores the
 * credential's public key, and replaces the session (its privileges changed). A first second
 * factor also brings ten recovery codes, shown once.
 */
export async function finishPasskeyRegistration(
  deps: IdentityDeps,
  cmd: FinishPasskeyRegistrationCommand,
): Promise<{ recoveryCodes: string[]; token: string; session: SessionView }> {
  const session = await activeSession(deps, cmd.sessionToken);
  const response = parseResponse<RegistrationResponseJSON>(cmd.responseJson);
  const challenge = session.webauthn_challenge;
  if (!challenge) throw passkeyRefused("no registration is under way: ask for options first");
  // Spent whatever the outcome.
  await deps.sessions.setWebauthnChallenge(session.id, null);
  const verified = await orRefused(() =>
    verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: cmd.rp.origin,
      expectedRPID: cmd.rp.rpId,
      requireUserVerification: false,
    }),
  );
  if (!verified.verified) throw passkeyRefused("the attestation did not verify");
  const user = await deps.accounts.byId(session.user_id);
  if (!user) throw errors.notFound("user", session.user_id);
  const c = verified.registrationInfo.credential;
  if ((user.passkeys ?? []).some((p) => p.id === c.id)) throw errors.alreadyExists("passkey", c.id);
  const now = deps.clock.now().toISOString();
  const passkey: PasskeyRecord = {
    id: c.id,
    public_key: Buffer.from(c.publicKey).toString("base64url"),
    counter: c.counter,
    transports: c.transports ?? [],
    name: cmd.name || "Passkey",
    created_at: now,
    last_used_at: null,
    device_type: verified.registrationInfo.credentialDeviceType,
    backed_up: verified.registrationInfo.credentialBackedUp,
  };
  let codes: string[] = [];
  await changePasskeys(deps, {
    userId: user.id,
    change: (fresh) => {
      if ((fresh.passkeys ?? []).some((p) => p.id === c.id)) throw errors.alreadyExists("passkey", c.id);
      const firstFactor = !hasSecondFactor(fresh);
      codes = firstFactor && fresh.recovery_code_hashes.length === 0 ? newRecoveryCodes() : [];
      return {
        passkeys: [...(fresh.passkeys ?? []), passkey],
        extra: codes.length ? { recovery_code_hashes: codes.map(hashToken), recovery_codes_left: codes.length } : {},
      };
    },
  });
  const started = await renewSession(deps, { session, clientIp: cmd.clientIp, userAgent: cmd.userAgent });
  await recordAudit(deps, {
    organizationId: session.organization_id,
    type: "mfa.passkey_added",
    actor: { type: "user", id: user.id, ip: cmd.clientIp },
    targetType: "user",
    targetId: user.id,
    data: { name: passkey.name },
  });
  return { recoveryCodes: codes, ...started };
}
