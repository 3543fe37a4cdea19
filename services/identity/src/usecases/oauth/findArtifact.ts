import type { IdentityDeps } from "../../deps.js";

export interface FindArtifactCommand {
  model: string;
  id?: string;
  uid?: string;
  userCode?: string;
}

/** The payload (with `consumed` set once consumed), or null when absent or expired: expired artifacts are never answered. */
export async function findArtifact(deps: IdentityDeps, cmd: FindArtifactCommand): Promise<string | null> {
  const record = await deps.repo.findOAuthArtifact(cmd.model, cmd);
  if (!record) return null;
  if (record.expires_at && Date.parse(record.expires_at) <= deps.clock.now().getTime()) return null;
  if (!record.consumed_at) return record.payload_json;
  const payload = JSON.parse(record.payload_json) as Record<string, unknown>;
  return JSON.stringify({ ...payload, consumed: Math.floor(Date.parse(record.consumed_at) / 1000) });
}
