import { errors } from "@verdict/kit";
import { newTotpSecret, totpUri } from "../../domain/totp.js";
import type { IdentityDeps } from "../../deps.js";
import { activeSession } from "../sessions/verifySession.js";

export interface StartTotpEnrolmentCommand {
  sessionToken: string;
}

/** Starts TOTP enrolment for the signed-in person: a new secret, kept sealed until confirmed. */
export async function startTotpEnrolment(
  deps: IdentityDeps,
  { sessionToken }: StartTotpEnrolmentCommand,
): Promise<{ secret: string; uri: string }> {
  const session = await activeSession(deps, sessionToken);
  const user = await deps.accounts.byId(session.user_id);
  if (!user) throw errors.notFound("user", session.user_id);
  if (user.totp_sealed) throw errors.alreadyExists("totp", user.id);
  const secret = newTotpSecret();
  await deps.accounts.startTotpEnrolment(user.id, deps.totpBox.seal(secret, `totp:${user.id}`));
  return { secret, uri: totpUri(secret, user.email) };
}
