// gRPC handlers of sessions: sign-in (and its TOTP step), verification, sign-out. Map proto <-> use
// cases, nothing else.
import { commandOf } from "@verdict/kit";
import { completeTotpLogin } from "../usecases/mfa/completeTotpLogin.js";
import { login } from "../usecases/sessions/login.js";
import { logout } from "../usecases/sessions/logout.js";
import { verifySession } from "../usecases/sessions/verifySession.js";
import type { IdentityDeps } from "../deps.js";
import { toSession, type IdentityHandlers } from "./mapping.js";

export function sessionHandlers(
  deps: IdentityDeps,
): IdentityHandlers<"login" | "completeTotpLogin" | "verifySession" | "logout"> {
  return {
    async login(req) {
      const res = await login(deps, commandOf(req, ["organization_id"]));
      if (res.kind === "mfa")
        return { mfa_required: true, methods: res.methods, mfa_token: res.mfaToken, session_token: "" };
      return {
        mfa_required: false,
        methods: [],
        mfa_token: "",
        session_token: res.token,
        session: toSession(res.session),
      };
    },
    async completeTotpLogin(req) {
      const res = await completeTotpLogin(deps, commandOf(req));
      return { session_token: res.token, session: toSession(res.session) };
    },
    async verifySession(req) {
      return { session: toSession(await verifySession(deps, { token: req.session_token })) };
    },
    async logout(req) {
      await logout(deps, { ...commandOf(req), token: req.session_token });
      return {};
    },
  };
}
