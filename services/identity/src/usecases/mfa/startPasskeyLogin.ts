import { generateAuthenticationOptions } from "@simplewebauthn/server";
import type { IdentityDeps } from "../../deps.js";
import type { RelyingParty } from "./startPasskeyRegistration.js";
import { pendingChallenge } from "./pendingChallenge.js";

export interface StartPasskeyLoginCommand {
  mfaToken: string;
  rp: RelyingParty;
}

/** Options to sign the second step of a sign-in with one of the person's passkeys. */
export async function startPasskeyLogin(
  deps: IdentityDeps,
  { mfaToken, rp }: StartPasskeyLoginCommand,
): Promise<string> {
  const { challenge, user } = await pendingChallenge(deps, mfaToken);
  const options = await generateAuthenticationOptions({
    rpID: rp.rpId,
    allowCredentials: (user.passkeys ?? []).map((p) => ({ id: p.id, transports: p.transports })),
    userVerification: "preferred",
  });
  await deps.sessions.setWebauthnChallenge(challenge.id, options.challenge);
  return JSON.stringify(options);
}
