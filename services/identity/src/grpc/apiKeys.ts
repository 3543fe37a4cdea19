// gRPC handlers of API keys: verification (the gateway's, on every request), listing, creation,
// revocation. Map proto <-> use cases, nothing else.
import { commandOf, messageFields } from "@verdict/kit";
import type { identityV1 } from "@verdict/proto";
import type { Environment, Expiration } from "../domain/apiKey.js";
import type { KeyRecord } from "../repos/apiKeyRepo.js";
import { createApiKey } from "../usecases/apiKeys/createApiKey.js";
import { listApiKeys } from "../usecases/apiKeys/listApiKeys.js";
import { revokeApiKey } from "../usecases/apiKeys/revokeApiKey.js";
import { verifyKey } from "../usecases/apiKeys/verifyKey.js";
import type { IdentityDeps } from "../deps.js";
import { fromActor, type IdentityHandlers } from "./mapping.js";

export function toApiKey(k: KeyRecord): identityV1.ApiKey {
  return {
    ...messageFields(k, [
      "id",
      "name",
      "scopes",
      "environment",
      "prefix",
      "created_at",
      "expires_at",
      "last_used_at",
      "ip_allowlist",
      "operator",
    ]),
    // A retired operator key works no more: lists show it revoked from its retirement on.
    revoked_at: k.revoked_at ?? k.retired_at ?? undefined,
  };
}

export function apiKeyHandlers(
  deps: IdentityDeps,
): IdentityHandlers<"verifyKey" | "listApiKeys" | "createApiKey" | "revokeApiKey"> {
  return {
    async verifyKey(req) {
      const { key, org, scopes } = await verifyKey(deps, commandOf(req));
      return {
        key_id: key.id,
        organization_id: org.id,
        organization_name: org.name,
        scopes,
        expires_at: key.expires_at ?? undefined,
        operator: key.operator,
        rate_limits: { ...org.rate_limits },
      };
    },
    async listApiKeys(req) {
      return { api_keys: (await listApiKeys(deps, commandOf(req))).map(toApiKey) };
    },
    async createApiKey(req) {
      const command = commandOf(req, ["environment", "creator_key_id", "creator_user_id"]);
      const { record, key } = await createApiKey(deps, {
        ...command,
        // The gateway's schema checked both against the values the use case takes.
        expiration: req.expiration as Expiration,
        environment: command.environment as Environment | undefined,
        actor: fromActor(req.actor),
      });
      return { api_key: toApiKey(record), key };
    },
    async revokeApiKey(req) {
      await revokeApiKey(deps, { ...commandOf(req), actor: fromActor(req.actor) });
      return {};
    },
  };
}
