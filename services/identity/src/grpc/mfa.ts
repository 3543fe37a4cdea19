// gRPC handlers of MFA: TOTP enrolment, passkeys (registration, sign-in, an account's list). Map
// proto <-> use cases, nothing else.
import type { identityV1 } from "@verdict/proto";
import { confirmTotpEnrolment } from "../usecases/mfa/confirmTotpEnrolment.js";
import { startTotpEnrolment } from "../usecases/mfa/startTotpEnrolment.js";
import { finishPasskeyLogin } from "../usecases/mfa/finishPasskeyLogin.js";
import { finishPasskeyRegistration } from "../usecases/mfa/finishPasskeyRegistration.js";
import { deletePasskey, listPasskeys, renamePasskey, type PasskeyView } from "../usecases/mfa/passkeys.js";
import { startPasskeyLogin } from "../usecases/mfa/startPasskeyLogin.js";
import { startPasskeyRegistration, type RelyingParty } from "../usecases/mfa/startPasskeyRegistration.js";
import type { IdentityDeps } from "../deps.js";
import { toSession, type IdentityHandlers } from "./mapping.js";

function fromRp(rp: identityV1.RelyingParty | undefined): RelyingParty {
  return { rpId: rp?.rp_id ?? "", origin: rp?.origin ?? "" };
}

function toPasskey(p: PasskeyView): identityV1.Passkey {
  return { ...p, last_used_at: p.last_used_at ?? undefined };
}

export function mfaHandlers(
  deps: IdentityDeps,
): IdentityHandlers<
  | "startTotpEnrolment"
  | "confirmTotpEnrolment"
  | "startPasskeyRegistration"
  | "finishPasskeyRegistration"
  | "startPasskeyLogin"
  | "finishPasskeyLogin"
  | "listPasskeys"
  | "renamePasskey"
  | "deletePasskey"
> {
  return {
    async startTotpEnrolment(req) {
      const res = await startTotpEnrolment(deps, { sessionToken: req.session_token });
      return { secret: res.secret, otpauth_uri: res.uri };
    },
    async confirmTotpEnrolment(req) {
      const res = await confirmTotpEnrolment(deps, {
        sessionToken: req.session_token,
        code: req.code,
        clientIp: req.client_ip,
        userAgent: req.user_agent,
      });
      return { recovery_codes: res.recoveryCodes, session_token: res.token, session: toSession(res.session) };
    },
    async startPasskeyRegistration(req) {
      return {
        options_json: await startPasskeyRegistration(deps, { sessionToken: req.session_token, rp: fromRp(req.rp) }),
      };
    },
    async finishPasskeyRegistration(req) {
      const res = await finishPasskeyRegistration(deps, {
        sessionToken: req.session_token,
        rp: fromRp(req.rp),
        responseJson: req.response_json,
        name: req.name,
        clientIp: req.client_ip,
        userAgent: req.user_agent,
      });
      return { recovery_codes: res.recoveryCodes, session_token: res.token, session: toSession(res.session) };
    },
    async startPasskeyLogin(req) {
      return { options_json: await startPasskeyLogin(deps, { mfaToken: req.mfa_token, rp: fromRp(req.rp) }) };
    },
    async finishPasskeyLogin(req) {
      const res = await finishPasskeyLogin(deps, {
        mfaToken: req.mfa_token,
        rp: fromRp(req.rp),
        responseJson: req.response_json,
        clientIp: req.client_ip,
        userAgent: req.user_agent,
      });
      return { session_token: res.token, session: toSession(res.session) };
    },
    async listPasskeys(req) {
      return { passkeys: (await listPasskeys(deps, { sessionToken: req.session_token })).map(toPasskey) };
    },
    async renamePasskey(req) {
      const passkey = await renamePasskey(deps, {
        sessionToken: req.session_token,
        passkeyId: req.passkey_id,
        name: req.name,
        expectedVersion: req.expected_version,
      });
      return { passkey: toPasskey(passkey) };
    },
    async deletePasskey(req) {
      await deletePasskey(deps, {
        sessionToken: req.session_token,
        passkeyId: req.passkey_id,
        clientIp: req.client_ip,
        expectedVersion: req.expected_version,
      });
      return {};
    },
  };
}
