import type { IdentityDeps } from "../../deps.js";

export interface ArtifactRef {
  model: string;
  id: string;
}

export async function consumeArtifact(deps: IdentityDeps, cmd: ArtifactRef): Promise<void> {
  await deps.oauth.consumeArtifact(cmd.model, cmd.id, deps.clock.now().toISOString());
}
