// gRPC handlers of OAuth: the clients an organization registers, and what the gateway's
// authorization server keeps here (artifacts, accounts, its secret, its audit events). Map proto
// <-> use cases, nothing else.
import { commandOf, messageFields, replyOf } from "@verdict/kit";
import type { identityV1 } from "@verdict/proto";
import type { OAuthClientRecord } from "../repos/oauthRepo.js";
import { createOAuthClient } from "../usecases/oauth/createOAuthClient.js";
import { deleteOAuthClient } from "../usecases/oauth/deleteOAuthClient.js";
import { listOAuthClients } from "../usecases/oauth/listOAuthClients.js";
import { consumeArtifact } from "../usecases/oauth/consumeArtifact.js";
import { destroyArtifact } from "../usecases/oauth/destroyArtifact.js";
import { findArtifact } from "../usecases/oauth/findArtifact.js";
import { upsertArtifact } from "../usecases/oauth/upsertArtifact.js";
import { getOAuthAccount } from "../usecases/oauth/getOAuthAccount.js";
import { getOAuthClientRegistration } from "../usecases/oauth/getOAuthClientRegistration.js";
import { recordOAuthEvent } from "../usecases/oauth/recordOAuthEvent.js";
import { revokeGrant } from "../usecases/oauth/revokeGrant.js";
import { verifyAccessToken } from "../usecases/oauth/verifyAccessToken.js";
import type { IdentityDeps } from "../deps.js";
import { fromActor, type IdentityHandlers } from "./mapping.js";

function toOAuthClient(c: OAuthClientRecord): identityV1.OAuthClient {
  return messageFields(c, ["id", "name", "redirect_uris", "scopes", "public", "created_at"]);
}

export function oauthHandlers(
  deps: IdentityDeps,
): IdentityHandlers<
  | "listOAuthClients"
  | "createOAuthClient"
  | "deleteOAuthClient"
  | "oAuthArtifactUpsert"
  | "oAuthArtifactFind"
  | "oAuthArtifactConsume"
  | "oAuthArtifactDestroy"
  | "oAuthArtifactRevokeGrant"
  | "getOAuthClientRegistration"
  | "getOAuthAccount"
  | "verifyAccessToken"
  | "getOAuthServerSecret"
  | "recordOAuthEvent"
> {
  return {
    async listOAuthClients(req) {
      return { oauth_clients: (await listOAuthClients(deps, commandOf(req))).map(toOAuthClient) };
    },
    async createOAuthClient(req) {
      const { record, secret } = await createOAuthClient(deps, { ...commandOf(req), actor: fromActor(req.actor) });
      return { oauth_client: toOAuthClient(record), ...(secret ? { client_secret: secret } : {}) };
    },
    async deleteOAuthClient(req) {
      await deleteOAuthClient(deps, { ...commandOf(req), actor: fromActor(req.actor) });
      return {};
    },
    async oAuthArtifactUpsert(req) {
      // An int64 arrives as its decimal string.
      await upsertArtifact(deps, { ...commandOf(req), expiresIn: Number(req.expires_in) });
      return {};
    },
    async oAuthArtifactFind(req) {
      const payload = await findArtifact(deps, commandOf(req, ["id", "uid", "user_code"]));
      return payload === null ? {} : { payload_json: payload };
    },
    async oAuthArtifactConsume(req) {
      await consumeArtifact(deps, commandOf(req));
      return {};
    },
    async oAuthArtifactDestroy(req) {
      await destroyArtifact(deps, commandOf(req));
      return {};
    },
    async oAuthArtifactRevokeGrant(req) {
      await revokeGrant(deps, commandOf(req));
      return {};
    },
    async getOAuthClientRegistration(req) {
      const c = await getOAuthClientRegistration(deps, commandOf(req));
      return { oauth_client: toOAuthClient(c), organization_id: c.organization_id, secret_hash: c.secret_hash ?? "" };
    },
    async getOAuthAccount(req) {
      return replyOf(await getOAuthAccount(deps, commandOf(req)));
    },
    async verifyAccessToken(req) {
      const v = await verifyAccessToken(deps, commandOf(req));
      return {
        organization_id: v.org.id,
        organization_name: v.org.name,
        scopes: v.scopes,
        expires_at: v.expiresAt,
        rate_limits: { ...v.org.rate_limits },
        user_id: v.userId,
        client_id: v.clientId,
      };
    },
    async getOAuthServerSecret() {
      return { secret: deps.oauthServerSecret };
    },
    async recordOAuthEvent(req) {
      await recordOAuthEvent(deps, { ...commandOf(req), actor: fromActor(req.actor) });
      return {};
    },
  };
}
