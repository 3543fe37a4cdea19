// OAuth tokens: opaque, `vdt_oat_…` (access) and `vdt_ort_…` (refresh), with the API keys'
// checksum scheme, so a leaked one is recognisable and a mistyped one refused before any lookup.
import { createHash } from "node:crypto";

export const ACCESS_TOKEN_PREFIX = "vdt_oat_";
export const REFRESH_TOKEN_PREFIX = "vdt_ort_";

/**
 * The artifacts whose id is the credential itself (oidc-provider's opaque format: the token's
 * value is its id, and the payload repeats it as `jti`). They are stored under a SHA-256 of the
 * id and without the `jti`, like every other credential kind: someone reading the store (its
 * files, its write-ahead log, a backup) finds no usable token. Each is looked up only by the
 * value presented, which gives the id back.
 */
const CREDENTIAL_ARTIFACTS = new Set(["AccessToken", "RefreshToken", "AuthorizationCode", "ClientCredentials"]);

/** The stored record's id for an artifact: `<model>:<id>`, or `<model>:sha256:<hex>` for a credential. */
export function artifactStorageId(model: string, id: string): string {
  if (!CREDENTIAL_ARTIFACTS.has(model)) return `${model}:${id}`;
  return `${model}:sha256:${createHash("sha256").update(id, "utf8").digest("hex")}`;
}

/** The payload as stored: a credential's without its own value. */
export function storedArtifactPayload(model: string, payload: Record<string, unknown>): Record<string, unknown> {
  if (!CREDENTIAL_ARTIFACTS.has(model)) return payload;
  const { jti: _value, ...rest } = payload;
  return rest;
}

/** The payload as oidc-provider wrote it: a credential's value put back from the id it was found by. */
export function presentedArtifactPayload(
  model: string,
  id: string | undefined,
  payload: Record<string, unknown>,
): Record<string, unknown> {
  return CREDENTIAL_ARTIFACTS.has(model) && id ? { ...payload, jti: id } : payload;
}
