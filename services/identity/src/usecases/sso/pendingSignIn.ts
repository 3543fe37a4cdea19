// A sign-in under way at an IdP, kept under the hash of its state (OIDC) or RelayState (SAML) and
// bound to the browser that started it: the gateway sets a random SSO cookie when a sign-in
// starts, the hash of that secret is kept with the sign-in, and only a request carrying the same
// cookie finishes it. Someone who starts a sign-in in their own browser and hands the IdP's
// answer to another person's browser (login CSRF: that person would work in the attacker's
// account) is refused. Each sign-in is taken once, whatever the outcome.
import { AppError } from "@verdict/kit";
import type { IdentityDeps } from "../../deps.js";
import { hashToken } from "../../domain/secrets.js";
import { sameBrowser } from "../../domain/sso.js";
import type { SsoStateRecord } from "../../repos/ssoRepo.js";

export const invalidState = () =>
  new AppError(
    "unauthorized",
    "SSO_STATE_INVALID",
    "This sign-in is unknown, expired or was already used: start again from the sign-in page",
  );

export interface TakePendingSignIn {
  /** The state (OIDC) or RelayState (SAML) the IdP sent back. */
  secret: string;
  protocol: SsoStateRecord["protocol"];
  /** The SSO cookie of the browser finishing the sign-in ("" when it sent none). */
  browserBinding: string;
}

export async function takePendingSignIn(deps: IdentityDeps, cmd: TakePendingSignIn): Promise<SsoStateRecord> {
  if (!cmd.secret) throw invalidState();
  const pending = await deps.sso.takeSignIn(hashToken(cmd.secret), cmd.protocol);
  if (!pending || Date.parse(pending.expires_at) <= deps.clock.now().getTime()) throw invalidState();
  if (!sameBrowser(pending.browser_hash, cmd.browserBinding)) {
    deps.logger.warn({ organization_id: pending.organization_id }, "SSO sign-in finished by another browser");
    throw new AppError(
      "unauthorized",
      "SSO_STATE_INVALID",
      "This sign-in was started in another browser (or this browser's sign-in cookie expired): start again from the sign-in page",
    );
  }
  return pending;
}
