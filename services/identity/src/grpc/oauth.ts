// gRPC handlers of OAuth: the clients an organization registers, and what the gateway's
// authorization server keeps here (artifacts, accounts, its secret, its audit events). Map proto
// <-> use cases, nothing else.
import { messageFields } from "@verdict/kit";
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
      return {
        oauth_clients: (await listOAuthClients(deps, { organizationId: req.organization_id })).map(toOAuthClient),
      };
    },
    async createOAuthClient(req) {
      const { record, secret } = await createOAuthClient(deps, {
        organizationId: req.organization_id,
        name: req.name,
        redirectUris: req.redirect_uris,
        scopes: req.scopes,
        public: req.public,
        actor: fromActor(req.actor),
      });
      return { oauth_client: toOAuthClient(record), ...(secret ? { client_secret: secret } : {}) };
    },
    async deleteOAuthClient(req) {
      await deleteOAuthClient(deps, {
        organizationId: req.organization_id,
        clientId: req.client_id,
        actor: fromActor(req.actor),
      });
      return {};
    },
    async oAuthArtifactUpsert(req) {
      await upsertArtifact(deps, {
        model: req.model,
        id: req.id,
        payloadJson: req.payload_json,
        expiresIn: Number(req.expires_in),
      });
      return {};
    },
    async oAuthArtifactFind(req) {
      const payload = await findArtifact(deps, {
        model: req.model,
        ...(req.id ? { id: req.id } : {}),
        ...(req.uid ? { uid: req.uid } : {}),
        ...(req.user_code ? { userCode: req.user_code } : {}),
      });
      return payload === null ? {} : { payload_json: payload };
    },
    async oAuthArtifactConsume(req) {
      await consumeArtifact(deps, { model: req.model, id: req.id });
      return {};
    },
    async oAuthArtifactDestroy(req) {
      await destroyArtifact(deps, { model: req.model, id: req.id });
      return {};
    },
    async oAuthArtifactRevokeGrant(req) {
      await revokeGrant(deps, { grantId: req.grant_id });
      return {};
    },
    async getOAuthClientRegistration(req) {
      const c = await getOAuthClientRegistration(deps, { clientId: req.client_id });
      return { oauth_client: toOAuthClient(c), organization_id: c.organization_id, secret_hash: c.secret_hash ?? "" };
    },
    async getOAuthAccount(req) {
      const a = await getOAuthAccount(deps, { accountId: req.account_id });
      return {
        user_id: a.userId,
        organization_id: a.organizationId,
        email: a.email,
        name: a.name,
        role_scopes: a.roleScopes,
      };
    },
    async verifyAccessToken(req) {
      const v = await verifyAccessToken(deps, { token: req.token });
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
      await recordOAuthEvent(deps, {
        organizationId: req.organization_id,
        type: req.type,
        actor: fromActor(req.actor),
        clientId: req.client_id,
        grantId: req.grant_id,
        scopes: req.scopes,
        reason: req.reason,
      });
      return {};
    },
  };
}
