import type { IdentityDeps } from "../../deps.js";

export interface RevokeGrantCommand {
  grantId: string;
}

/** Ends a token family: every code, access and refresh token of the grant (oidc-provider's revokeByGrantId). */
export async function revokeGrant(deps: IdentityDeps, cmd: RevokeGrantCommand): Promise<void> {
  await deps.oauth.revokeGrant(cmd.grantId);
}
