// gRPC handlers of MFA: TOTP enrolment, passkeys (registration, sign-in, an account's list). Map
// proto <-> use cases, nothing else.
import { commandOf } from "@verdict/kit";
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
      const res = await startTotpEnrolment(deps, commandOf(req));
      return { secret: res.secret, otpauth_uri: res.uri };
    },
    async confirmTotpEnrolment(req) {
      const res = await confirmTotpEnrolment(deps, commandOf(req));
      return { recovery_codes: res.recoveryCodes, session_token: res.token, session: toSession(res.session) };
    },
    async startPasskeyRegistration(req) {
      return { options_json: await startPasskeyRegistration(deps, { ...commandOf(req), rp: fromRp(req.rp) }) };
    },
    async finishPasskeyRegistration(req) {
      const res = await finishPasskeyRegistration(deps, { ...commandOf(req), rp: fromRp(req.rp) });
      return { recovery_codes: res.recoveryCodes, session_token: res.token, session: toSession(res.session) };
    },
    async startPasskeyLogin(req) {
      return { options_json: await startPasskeyLogin(deps, { ...commandOf(req), rp: fromRp(req.rp) }) };
    },
    async finishPasskeyLogin(req) {
      const res = await finishPasskeyLogin(deps, { ...commandOf(req), rp: fromRp(req.rp) });
      return { session_token: res.token, session: toSession(res.session) };
    },
    async listPasskeys(req) {
      return { passkeys: (await listPasskeys(deps, commandOf(req))).map(toPasskey) };
    },
    async renamePasskey(req) {
      return { passkey: toPasskey(await renamePasskey(deps, commandOf(req))) };
    },
    async deletePasskey(req) {
      await deletePasskey(deps, commandOf(req));
      return {};
    },
  };
}
