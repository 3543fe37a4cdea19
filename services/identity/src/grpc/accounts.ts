// gRPC handlers of accounts: password changes and reset links. Map proto <-> use cases, nothing
// else.
import { changePassword } from "../usecases/passwords/changePassword.js";
import { issuePasswordReset } from "../usecases/passwords/issuePasswordReset.js";
import { resetPassword } from "../usecases/passwords/resetPassword.js";
import type { IdentityDeps } from "../deps.js";
import { fromActor, type IdentityHandlers } from "./mapping.js";

export function accountHandlers(
  deps: IdentityDeps,
): IdentityHandlers<"changePassword" | "issuePasswordReset" | "resetPassword"> {
  return {
    async changePassword(req) {
      const res = await changePassword(deps, {
        sessionId: req.session_id,
        userId: req.user_id,
        organizationId: req.organization_id,
        currentPassword: req.current_password,
        newPassword: req.new_password,
        clientIp: req.client_ip,
      });
      return { sessions_ended: res.sessionsEnded };
    },
    async issuePasswordReset(req) {
      const res = await issuePasswordReset(deps, {
        organizationId: req.organization_id,
        userId: req.user_id,
        actor: fromActor(req.actor),
        ...(req.issuer_user_id ? { issuerUserId: req.issuer_user_id } : {}),
      });
      return { reset_token: res.token, expires_at: res.expiresAt };
    },
    async resetPassword(req) {
      const res = await resetPassword(deps, {
        token: req.token,
        newPassword: req.new_password,
        clientIp: req.client_ip,
      });
      return { sessions_ended: res.sessionsEnded };
    },
  };
}
