import { errors } from "@verdict/kit";
import { hashKey, ipAllowed, parseKey } from "../../domain/apiKey.js";
import type { IdentityDeps } from "../../deps.js";
import type { KeyRecord } from "../../repos/apiKeyRepo.js";
import type { OrgRecord } from "../../repos/organizationRepo.js";
import { personScopes } from "../members/authority.js";

export interface VerifyKeyCommand {
  key: string;
  clientIp: string;
}

export interface VerifiedKey {
  key: KeyRecord;
  org: OrgRecord;
  /** What the key may do now: its scopes, within its creator's current role when a person made it. */
  scopes: string[];
}

// last_used_at is written at most once a minute per key, not on every request.
const LAST_USED_GRANULARITY_MS = 60_000;

export async function verifyKey(deps: IdentityDeps, cmd: VerifyKeyCommand): Promise<VerifiedKey> {
  if (!cmd.key) throw errors.unauthorized("AUTH_MISSING_KEY", "No API key provided");
  const parsed = parseKey(cmd.key);
  if (!parsed.ok) {
    throw errors.unauthorized(
      "AUTH_INVALID_KEY",
      parsed.reason === "checksum"
        ? "API key checksum does not match; the key was mistyped or truncated"
        : "API key format is invalid",
    );
  }
  const key = await deps.keys.byHash(hashKey(cmd.key));
  if (!key) throw errors.unauthorized("AUTH_INVALID_KEY", "API key is not recognised");
  if (key.revoked_at) throw errors.unauthorized("AUTH_REVOKED_KEY", "API key was revoked");
  if (key.retired_at)
    throw errors.unauthorized("AUTH_REVOKED_KEY", "API key was retired: the instance operator key was rotated");
  const now = deps.clock.now();
  if (key.expires_at && Date.parse(key.expires_at) <= now.getTime()) {
    throw errors.unauthorized("AUTH_EXPIRED_KEY", `API key expired at ${key.expires_at}`);
  }
  if (!ipAllowed(key.ip_allowlist, cmd.clientIp)) {
    throw errors.forbidden("AUTH_IP_NOT_ALLOWED", "The caller's IP address is not in this key's allowlist", {
      ip: cmd.clientIp,
    });
  }
  const org = await deps.orgs.find(key.organization_id);
  if (!org) throw errors.forbidden("AUTH_ORG_ACCESS_DENIED", "The key's organization no longer exists");
  // The role ceiling, read at every verification: a demoted creator's key narrows with them.
  const scopes = await personScopes(deps, key.organization_id, key.created_by_user_id, key.scopes);
  if (!scopes)
    throw errors.unauthorized(
      "AUTH_REVOKED_KEY",
      "The member who created this API key is no longer in the organization",
    );
  if (!key.last_used_at || now.getTime() - Date.parse(key.last_used_at) > LAST_USED_GRANULARITY_MS) {
    await deps.keys.touch(key.id, now.toISOString());
  }
  return { key, org, scopes };
}
