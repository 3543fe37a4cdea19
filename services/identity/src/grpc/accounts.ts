// gRPC handlers of accounts: password changes and reset links. Map proto <-> use cases, nothing
// else.
import { commandOf, replyOf } from "@verdict/kit";
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
      return replyOf(await changePassword(deps, commandOf(req)));
    },
    async issuePasswordReset(req) {
      const res = await issuePasswordReset(deps, {
        ...commandOf(req, ["issuer_user_id"]),
        actor: fromActor(req.actor),
      });
      return { reset_token: res.token, expires_at: res.expiresAt };
    },
    async resetPassword(req) {
      return replyOf(await resetPassword(deps, commandOf(req)));
    },
  };
}
