// The storage operations oidc-provider's adapter interface asks for, on the Store: one
// collection for every model, so codes, tokens and grants survive restarts and are shared by
// every gateway replica. Tokens and codes are kept under a hash of their value, never the value.
import type { IdentityDeps } from "../../deps.js";
import type { OAuthArtifactRecord } from "../../repos/oauthRepo.js";
import { storedArtifactPayload } from "../../domain/oauthToken.js";

export interface UpsertArtifactCommand {
  model: string;
  id: string;
  payloadJson: string;
  /** Seconds; 0: no expiry. */
  expiresIn: number;
}

function field(payload: Record<string, unknown>, name: string): string | null {
  const v = payload[name];
  return typeof v === "string" && v ? v : null;
}

export async function upsertArtifact(deps: IdentityDeps, cmd: UpsertArtifactCommand): Promise<void> {
  const payload = JSON.parse(cmd.payloadJson) as Record<string, unknown>;
  const now = deps.clock.now().getTime();
  const fields: Omit<OAuthArtifactRecord, "id"> = {
    model: cmd.model,
    payload_json: JSON.stringify(storedArtifactPayload(cmd.model, payload)),
    grant_id: field(payload, "grantId"),
    uid: field(payload, "uid"),
    user_code: field(payload, "userCode"),
    account_id: field(payload, "accountId"),
    expires_at: cmd.expiresIn > 0 ? new Date(now + cmd.expiresIn * 1000).toISOString() : null,
    consumed_at: null,
  };
  await deps.oauth.saveArtifact(deps.oauth.artifactId(cmd.model, cmd.id), fields);
}
