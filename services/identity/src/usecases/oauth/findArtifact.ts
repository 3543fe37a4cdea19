import type { IdentityDeps } from "../../deps.js";
import { presentedArtifactPayload } from "../../domain/oauthToken.js";

export interface FindArtifactCommand {
  model: string;
  id?: string;
  uid?: string;
  userCode?: string;
}

/** The payload (with `consumed` set once consumed), or null when absent or expired: expired artifacts are never answered. */
export async function findArtifact(deps: IdentityDeps, cmd: FindArtifactCommand): Promise<string | null> {
  const record = await deps.oauth.findArtifact(cmd.model, cmd);
  if (!record) return null;
  if (record.expires_at && Date.parse(record.expires_at) <= deps.clock.now().getTime()) return null;
  const payload = presentedArtifactPayload(
    cmd.model,
    cmd.id,
    JSON.parse(record.payload_json) as Record<string, unknown>,
  );
  if (!record.consumed_at) return JSON.stringify(payload);
  return JSON.stringify({ ...payload, consumed: Math.floor(Date.parse(record.consumed_at) / 1000) });
}
