import type { IdentityDeps } from "../../deps.js";

/** Deletes the OAuth artifacts past their expiry (codes, tokens, interactions): none is answered anyway. */
export async function sweepExpiredArtifacts(deps: IdentityDeps): Promise<number> {
  return deps.oauth.deleteExpiredArtifacts(deps.clock.now().toISOString());
}
