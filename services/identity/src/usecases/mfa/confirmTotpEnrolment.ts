import { AppError, errors } from "@verdict/kit";
import { hashToken, newRecoveryCodes } from "../../domain/secrets.js";
import { acceptedStep } from "../../domain/totp.js";
import type { IdentityDeps } from "../../deps.js";
import { recordAudit } from "../audit/recordAudit.js";
import type { SessionView } from "../sessions/sessionView.js";
import { renewSession } from "../sessions/renewSession.js";
import { activeSession } from "../sessions/verifySession.js";

export interface ConfirmTotpEnrolmentCommand {
  sessionToken: string;
  code: string;
  clientIp: string;
  userAgent: string;
}

/**
 * Confirms enrolment with a first code: TOTP is on, ten recovery codes are answered once (kept
 * hashed), and the session is replaced by a new one (its privileges changed).
 */
export async function confirmTotpEnrolment(
  deps: IdentityDeps,
  cmd: ConfirmTotpEnrolmentCommand,
): Promise<{ recoveryCodes: string[]; token: string; session: SessionView }> {
  const session = await activeSession(deps, cmd.sessionToken);
  const user = await deps.accounts.byId(session.user_id);
  if (!user) throw errors.notFound("user", session.user_id);
  if (user.totp_sealed) throw errors.alreadyExists("totp", user.id);
  if (!user.totp_pending_sealed) {
    throw errors.unprocessable([
      {
        field: "code",
        code: "INVALID_FORMAT",
        message: "No TOTP enrolment is under way: start one with POST /auth/mfa/totp/enrolment",
      },
    ]);
  }
  const context = `totp:${user.id}`;
  const secret = deps.totpBox.open(user.totp_pending_sealed, context);
  const step = acceptedStep(secret, cmd.code.trim(), deps.clock.now().getTime(), null);
  if (step === null)
    throw new AppError(
      "unauthorized",
      "AUTH_INVALID_MFA_CODE",
      "The code is wrong or expired: check the authenticator's clock and try the current code",
    );
  const codes = newRecoveryCodes();
  const enabled = await deps.accounts.enableTotp(user.id, {
    totp_sealed: user.totp_pending_sealed,
    totp_last_step: step,
    recovery_code_hashes: codes.map(hashToken),
    recovery_codes_left: codes.length,
  });
  if (!enabled) throw errors.alreadyExists("totp", user.id);
  const started = await renewSession(deps, { session, clientIp: cmd.clientIp, userAgent: cmd.userAgent });
  await recordAudit(deps, {
    organizationId: session.organization_id,
    type: "mfa.totp_enabled",
    actor: { type: "user", id: user.id, ip: cmd.clientIp },
    targetType: "user",
    targetId: user.id,
  });
  return { recoveryCodes: codes, ...started };
}
