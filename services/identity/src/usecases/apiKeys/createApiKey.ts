import { errors, newId } from "@verdict/kit";
import {
  containmentProblems,
  displayPrefix,
  expiresAt,
  generateKey,
  hashKey,
  parseAllowlist,
  parseKey,
  type Environment,
  type Expiration,
  type KeyGrant,
} from "../../domain/apiKey.js";
import type { IdentityDeps } from "../../deps.js";
import type { KeyRecord } from "../../repos/apiKeyRepo.js";
import { personScopes } from "../members/authority.js";
import { recordAudit, SYSTEM_ACTOR, type Actor } from "../audit/recordAudit.js";

export interface CreateApiKeyCommand {
  organizationId: string;
  name: string;
  scopes: string[];
  expiration: Expiration;
  /** Unset: the creating key's environment, else prod. */
  environment?: Environment;
  /** Empty: the creating key's allowlist (none: any address). */
  ipAllowlist: string[];
  /** The key making the request: the new key must lie within it. Unset for bootstrap keys. */
  creatorKeyId?: string;
  operator?: boolean;
  /** Only for the bootstrap key taken from configuration. */
  presetKey?: string;
  /** A signed-in member creating the key: it must lie within their role's scopes. */
  creatorUserId?: string;
  /** Who creates it, for the audit log; unset: the instance itself. */
  actor?: Actor;
}

export async function createApiKey(
  deps: IdentityDeps,
  cmd: CreateApiKeyCommand,
): Promise<{ record: KeyRecord; key: string }> {
  const { cidrs, invalid } = parseAllowlist(cmd.ipAllowlist);
  if (invalid.length) {
    // The gateway's schema already limits the characters; an entry that still is no CIDR
    // range (10.0.0.0/33) breaks a rule the schema cannot express: 422.
    throw errors.unprocessable([
      {
        field: "ip_allowlist",
        code: "INVALID_FORMAT",
        message: `Not a CIDR range or IP address: ${invalid.join(", ")}`,
      },
    ]);
  }
  // ",,," names no range at all: refusing it keeps a typo from making an unrestricted key.
  if (cmd.ipAllowlist.length && !cidrs.length) {
    throw errors.unprocessable([
      {
        field: "ip_allowlist",
        code: "INVALID_FORMAT",
        message: "Lists no CIDR range or IP address; omit ip_allowlist for a key usable from any address",
      },
    ]);
  }
  const now = deps.clock.now();
  const { creator, personId } = await creatorGrant(deps, cmd);
  if ((cmd.creatorKeyId || cmd.creatorUserId) && !creator)
    throw errors.forbidden("AUTH_ORG_ACCESS_DENIED", "The creator does not belong to this organization");
  const requestedEnvironment = cmd.environment ?? creator?.environment ?? "prod";
  const allowlist = cidrs.length ? cidrs : (creator?.ip_allowlist ?? []);
  if (creator) {
    const problems = containmentProblems(creator, {
      scopes: cmd.scopes,
      environment: requestedEnvironment,
      expires_at: expiresAt(cmd.expiration, now),
      ip_allowlist: allowlist,
    });
    if (problems.length) {
      throw errors.unprocessable(
        problems.map((p) => ({ ...p, code: "INVALID_ENUM" as const })),
        "A key can only create keys within its own scopes, expiry, environment and IP allowlist",
      );
    }
  }
  const key = cmd.presetKey ?? generateKey(requestedEnvironment);
  const preset = cmd.presetKey ? parseKey(cmd.presetKey) : undefined;
  if (preset && !preset.ok) throw new Error("the configured bootstrap key is not a valid Verdict key");
  const environment = preset?.ok ? preset.environment : requestedEnvironment;
  const record: KeyRecord = {
    id: newId("key"),
    organization_id: cmd.organizationId,
    name: cmd.name,
    scopes: [...new Set(cmd.scopes)],
    environment,
    prefix: displayPrefix(key),
    hash: hashKey(key),
    created_at: now.toISOString(),
    expires_at: expiresAt(cmd.expiration, now),
    last_used_at: null,
    revoked_at: null,
    ip_allowlist: [...allowlist],
    operator: cmd.operator ?? false,
    // The person it acts for, when one stands behind its creator: the new key is capped by their
    // role and revoked with them, however many keys lie between.
    created_by_user_id: personId ?? null,
  };
  await deps.keys.insert(record);
  await recordAudit(deps, {
    organizationId: record.organization_id,
    type: "api_key.created",
    actor: cmd.actor ?? SYSTEM_ACTOR,
    targetType: "api_key",
    targetId: record.id,
    data: { name: record.name, scopes: record.scopes, environment: record.environment, expires_at: record.expires_at },
  });
  deps.logger.info(
    { key_id: record.id, organization_id: record.organization_id, scopes: record.scopes },
    "API key created",
  );
  return { record, key };
}

/**
 * What the creator may pass on to a key, and the person behind it: a key passes on its own
 * grant within its person's current role (if a person made it, directly or through their keys);
 * a signed-in member their role's scopes. Null grant: the creator is not (or no longer) here.
 */
async function creatorGrant(
  deps: IdentityDeps,
  cmd: CreateApiKeyCommand,
): Promise<{ creator: KeyGrant | null; personId?: string }> {
  const key = cmd.creatorKeyId ? await deps.keys.find(cmd.organizationId, cmd.creatorKeyId) : null;
  if (cmd.creatorKeyId && !key) return { creator: null };
  const personId = cmd.creatorUserId ?? key?.created_by_user_id ?? undefined;
  if (!personId) return { creator: key };
  const base: KeyGrant = key ?? { scopes: ["admin"], environment: "prod", expires_at: null, ip_allowlist: [] };
  const scopes = await personScopes(deps, cmd.organizationId, personId, base.scopes);
  return { creator: scopes ? { ...base, scopes } : null, personId };
}
