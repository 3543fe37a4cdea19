// The storage operations oidc-provider's adapter interface asks for, on the Store: one
// collection for every model, so codes, tokens and grants survive restarts and are shared by
// every gateway replica. Expired artifacts are never answered.
import { DuplicateKeyError } from "@verdict/store";
import type { IdentityDeps } from "../../deps.js";
import type { OAuthArtifactRecord } from "../../repo.js";

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
    payload_json: cmd.payloadJson,
    grant_id: field(payload, "grantId"),
    uid: field(payload, "uid"),
    user_code: field(payload, "userCode"),
    account_id: field(payload, "accountId"),
    expires_at: cmd.expiresIn > 0 ? new Date(now + cmd.expiresIn * 1000).toISOString() : null,
    consumed_at: null,
  };
  const id = deps.repo.oauthArtifactId(cmd.model, cmd.id);
  if (await deps.repo.oauthArtifacts.updateOne({ id }, fields)) return;
  try {
    await deps.repo.oauthArtifacts.insertOne({ id, ...fields });
  } catch (err) {
    // Written meanwhile by another replica: this write is the newer one.
    if (!(err instanceof DuplicateKeyError)) throw err;
    await deps.repo.oauthArtifacts.updateOne({ id }, fields);
  }
}

export interface FindArtifactCommand {
  model: string;
  id?: string;
  uid?: string;
  userCode?: string;
}

/** The payload (with `consumed` set once consumed), or null when absent or expired. */
export async function findArtifact(deps: IdentityDeps, cmd: FindArtifactCommand): Promise<string | null> {
  const filter: Record<string, string> | null = cmd.id
    ? { id: deps.repo.oauthArtifactId(cmd.model, cmd.id) }
    : cmd.uid
      ? { model: cmd.model, uid: cmd.uid }
      : cmd.userCode
        ? { model: cmd.model, user_code: cmd.userCode }
        : null;
  if (!filter) return null;
  const record = await deps.repo.oauthArtifacts.findOne(filter);
  if (!record) return null;
  if (record.expires_at && Date.parse(record.expires_at) <= deps.clock.now().getTime()) return null;
  if (!record.consumed_at) return record.payload_json;
  const payload = JSON.parse(record.payload_json) as Record<string, unknown>;
  return JSON.stringify({ ...payload, consumed: Math.floor(Date.parse(record.consumed_at) / 1000) });
}

export async function consumeArtifact(deps: IdentityDeps, model: string, id: string): Promise<void> {
  await deps.repo.oauthArtifacts.updateOne(
    { id: deps.repo.oauthArtifactId(model, id), consumed_at: null },
    { consumed_at: deps.clock.now().toISOString() },
  );
}

export async function destroyArtifact(deps: IdentityDeps, model: string, id: string): Promise<void> {
  await deps.repo.oauthArtifacts.deleteOne({ id: deps.repo.oauthArtifactId(model, id) });
}
