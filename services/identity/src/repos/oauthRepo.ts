// OAuth's collections, through the Store port: the applications registered to act for members,
// and the authorization server's artifacts (codes, tokens, grants, interactions), shared by every
// gateway replica.
import { DuplicateKeyError, type Collection, type Store } from "@verdict/store";
import { artifactStorageId } from "../domain/oauthToken.js";
import { IDENTITY_COLLECTIONS } from "./collections.js";

/** An application registered to act for members through OAuth 2.0. id = its client_id (`oac_…`). */
export interface OAuthClientRecord {
  id: string;
  organization_id: string;
  name: string;
  redirect_uris: string[];
  /** The most it may ask for; a grant is further limited to the member's role. */
  scopes: string[];
  /** A public client has no secret and must use PKCE. */
  public: boolean;
  /** SHA-256 of the client secret; null for a public client. */
  secret_hash: string | null;
  created_at: string;
  deleted_at: string | null;
}

/**
 * One artifact of the OAuth authorization server (oidc-provider): an authorization code, access
 * or refresh token, grant, interaction or session. id = `<model>:<artifact id>`.
 */
export interface OAuthArtifactRecord {
  id: string;
  model: string;
  /** The artifact's payload as oidc-provider wrote it, as JSON. */
  payload_json: string;
  grant_id: string | null;
  uid: string | null;
  user_code: string | null;
  /** The member it acts for (`<organization_id>.<user_id>`), when it has one. */
  account_id: string | null;
  expires_at: string | null;
  consumed_at: string | null;
}

export class OAuthRepo {
  private readonly clients: Collection<OAuthClientRecord>;
  private readonly artifacts: Collection<OAuthArtifactRecord>;

  constructor(store: Store) {
    this.clients = store.collection<OAuthClientRecord>(IDENTITY_COLLECTIONS.oauthClients);
    this.artifacts = store.collection<OAuthArtifactRecord>(IDENTITY_COLLECTIONS.oauthArtifacts);
  }

  /** The organization's registered (not deleted) OAuth clients, oldest first. */
  clientsOf(organizationId: string): Promise<OAuthClientRecord[]> {
    return this.clients.find({ organization_id: organizationId, deleted_at: null }, { sort: { id: 1 } });
  }

  /** A registered (not deleted) OAuth client, whichever organization it belongs to. */
  liveClient(clientId: string): Promise<OAuthClientRecord | null> {
    return this.clients.findOne({ id: clientId, deleted_at: null });
  }

  /** Where an artifact is kept: a token's or code's id is a hash of its value (artifactStorageId). */
  artifactId(model: string, id: string): string {
    return artifactStorageId(model, id);
  }

  /** Writes an OAuth artifact, whether it exists or not (the newer write wins a race between replicas). */
  async saveArtifact(id: string, fields: Omit<OAuthArtifactRecord, "id">): Promise<void> {
    if (await this.artifacts.updateOne({ id }, fields)) return;
    try {
      await this.artifacts.insertOne({ id, ...fields });
    } catch (err) {
      // Written meanwhile by another replica: this write is the newer one.
      if (!(err instanceof DuplicateKeyError)) throw err;
      await this.artifacts.updateOne({ id }, fields);
    }
  }

  /** An artifact of a model by its id, its interaction uid or its device user code; expired ones too. */
  findArtifact(
    model: string,
    key: { id?: string; uid?: string; userCode?: string },
  ): Promise<OAuthArtifactRecord | null> {
    if (key.id) return this.artifacts.findOne({ id: this.artifactId(model, key.id) });
    if (key.uid) return this.artifacts.findOne({ model, uid: key.uid });
    if (key.userCode) return this.artifacts.findOne({ model, user_code: key.userCode });
    return Promise.resolve(null);
  }

  /** Marks an artifact consumed (once: the first time counts). */
  async consumeArtifact(model: string, id: string, at: string): Promise<void> {
    await this.artifacts.updateOne({ id: this.artifactId(model, id), consumed_at: null }, { consumed_at: at });
  }

  async deleteArtifact(model: string, id: string): Promise<void> {
    await this.artifacts.deleteOne({ id: this.artifactId(model, id) });
  }

  /** How many OAuth artifacts the instance holds, expired ones too. */
  artifactsCount(): Promise<number> {
    return this.artifacts.count({});
  }

  /** Deletes the artifacts that expired before `at`; answers how many. */
  deleteExpiredArtifacts(at: string): Promise<number> {
    return this.artifacts.deleteMany({ expires_at: { $lt: at } });
  }

  /** One of the organization's OAuth clients, deleted ones too. */
  client(organizationId: string, clientId: string): Promise<OAuthClientRecord | null> {
    return this.clients.findOne({ id: clientId, organization_id: organizationId });
  }

  async insertClient(client: OAuthClientRecord): Promise<void> {
    await this.clients.insertOne(client);
  }

  /** Marks one of the organization's clients deleted; false when it was deleted already. */
  async markClientDeleted(organizationId: string, clientId: string, at: string): Promise<boolean> {
    const updated = await this.clients.updateOne(
      { id: clientId, organization_id: organizationId, deleted_at: null },
      { deleted_at: at },
    );
    return updated !== null;
  }

  /** Deletes every artifact of a grant (a token family): its codes, access and refresh tokens. */
  revokeGrant(grantId: string): Promise<number> {
    return this.artifacts.deleteMany({ grant_id: grantId });
  }

  /** Deletes every OAuth artifact that acts for a member (removed from the organization). */
  revokeArtifactsOf(accountId: string): Promise<number> {
    return this.artifacts.deleteMany({ account_id: accountId });
  }

  async init(): Promise<void> {
    await this.clients.ensureIndexes([{ name: "org_id", fields: { organization_id: 1, id: 1 } }]);
    await this.artifacts.ensureIndexes([
      { name: "grant_id", fields: { grant_id: 1 } },
      { name: "account_id", fields: { account_id: 1 } },
      { name: "uid", fields: { uid: 1 } },
      { name: "user_code", fields: { user_code: 1 } },
      { name: "expires_at", fields: { expires_at: 1 } },
    ]);
  }
}
