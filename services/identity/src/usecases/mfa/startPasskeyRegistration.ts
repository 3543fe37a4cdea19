import { generateRegistrationOptions } from "@simplewebauthn/server";
import { errors } from "@verdict/kit";
import type { IdentityDeps } from "../../deps.js";
import { activeSession } from "../sessions/verifySession.js";

export interface RelyingParty {
  rpId: string;
  origin: string;
}

export interface StartPasskeyRegistrationCommand {
  sessionToken: string;
  rp: RelyingParty;
}

/** Registration options for the signed-in person's new passkey; the challenge is kept on the session. */
export async function startPasskeyRegistration(
  deps: IdentityDeps,
  { sessionToken, rp }: StartPasskeyRegistrationCommand,
): Promise<string> {
  const session = await activeSession(deps, sessionToken);
  const user = await deps.accounts.byId(session.user_id);
  if (!user) throw errors.notFound("user", session.user_id);
  const options = await generateRegistrationOptions({
    rpName: "Verdict",
    rpID: rp.rpId,
    userName: user.email,
    userDisplayName: user.name || user.email,
    userID: new TextEncoder().encode(user.id),
    attestationType: "none",
    excludeCredentials: (user.passkeys ?? []).map((p) => ({ id: p.id, transports: p.transports })),
    authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
  });
  await deps.sessions.setWebauthnChallenge(session.id, options.challenge);
  return JSON.stringify(options);
}
