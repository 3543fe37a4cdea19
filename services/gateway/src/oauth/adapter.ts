// oidc-provider's storage adapter, on the identity service (and so on its Store: the embedded
// one or MongoDB): every gateway replica sees the same codes, tokens, grants and interactions.
// Clients are the ones admins registered through /v1/oauth-clients.
import { AppError } from "@verdict/kit";
import type { Clients } from "../clients.js";

type Payload = Record<string, unknown>;

/** The client metadata oidc-provider validates, from a registration. */
async function clientMetadata(clients: Clients, clientId: string): Promise<Payload | undefined> {
  try {
    const res = await clients.identity.getOAuthClientRegistration({ client_id: clientId });
    const c = res.oauth_client!;
    return {
      client_id: c.id,
      client_name: c.name,
      redirect_uris: c.redirect_uris,
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      // The registration's API scopes bound what the consent grants (they are the resource
      // server's, which client metadata cannot name).
      ...(c.public
        ? { token_endpoint_auth_method: "none" }
        : // The registration's secret hash: compareClientSecret hashes what a client presents.
          { token_endpoint_auth_method: "client_secret_post", client_secret: res.secret_hash }),
      organization_id: res.organization_id,
    };
  } catch (err) {
    if (err instanceof AppError && err.kind === "not_found") return undefined;
    throw err;
  }
}

export function adapterFor(clients: Clients): new (model: string) => object {
  return class IdentityAdapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: Payload, expiresIn: number): Promise<void> {
      await clients.identity.oAuthArtifactUpsert({
        model: this.model,
        id,
        payload_json: JSON.stringify(payload),
        expires_in: Math.max(0, Math.floor(expiresIn ?? 0)),
      });
    }

    async find(id: string): Promise<Payload | undefined> {
      if (this.model === "Client") return clientMetadata(clients, id);
      return this.lookup({ id });
    }

    async findByUid(uid: string): Promise<Payload | undefined> {
      return this.lookup({ uid });
    }

    async findByUserCode(userCode: string): Promise<Payload | undefined> {
      return this.lookup({ user_code: userCode });
    }

    async consume(id: string): Promise<void> {
      await clients.identity.oAuthArtifactConsume({ model: this.model, id });
    }

    async destroy(id: string): Promise<void> {
      await clients.identity.oAuthArtifactDestroy({ model: this.model, id });
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await clients.identity.oAuthArtifactRevokeGrant({ grant_id: grantId });
    }

    private async lookup(q: { id?: string; uid?: string; user_code?: string }): Promise<Payload | undefined> {
      const res = await clients.identity.oAuthArtifactFind({
        model: this.model,
        id: q.id ?? "",
        uid: q.uid ?? "",
        user_code: q.user_code ?? "",
      });
      return res.payload_json === undefined ? undefined : (JSON.parse(res.payload_json) as Payload);
    }
  };
}
