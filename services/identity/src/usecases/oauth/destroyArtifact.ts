import type { IdentityDeps } from "../../deps.js";
import type { ArtifactRef } from "./consumeArtifact.js";

export async function destroyArtifact(deps: IdentityDeps, cmd: ArtifactRef): Promise<void> {
  await deps.oauth.deleteArtifact(cmd.model, cmd.id);
}
