// OIDC discovery documents cached per issuer for VERDICT_OIDC_DISCOVERY_TTL_SECONDS, so a
// sign-in does not fetch the IdP's /.well-known/openid-configuration twice (authorize, then
// token). An entry older than the connection that uses it is fetched again: saving a connection
// (a new issuer, client or secret) invalidates it on every replica, since each reads the
// connection's updated_at from the store; the replica that saves also drops it at once.
// Every request openid-client makes for a connection (discovery, the token endpoint, the keys)
// goes through the outbound guard (customFetch). The ID token's signature is checked against the
// issuer's JWKS (openid-client's non-repudiation checks); the key set is kept with the issuer's
// entry (openid-client fetches it again when it is 5 minutes old, or when a token names a key
// it does not list and the set is at least a minute old: a rotated key).
import type { Egress } from "@verdict/kit";
import * as oidcClient from "openid-client";
import { allowsInsecureHttp, IDP_DOCUMENT_MAX_BYTES, IDP_FETCH_TIMEOUT_MS } from "../../domain/sso.js";

interface Entry {
  metadata: oidcClient.ServerMetadata;
  fetchedAt: number;
  keys?: ReturnType<typeof oidcClient.getJwksCache>;
}

/** What a use case needs to build an openid-client Configuration for a connection. */
export interface OidcClientSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The connection's updated_at: an entry fetched before it is stale. */
  connectionUpdatedAt: string;
}

export class OidcDiscoveryCache {
  private readonly entries = new Map<string, Entry>();

  private readonly fetch: ReturnType<Egress["fetcher"]>;

  /** ttlMs 0: every sign-in step fetches the document. */
  constructor(
    readonly ttlMs: number,
    egress: Egress,
  ) {
    this.fetch = egress.fetcher({ timeoutMs: IDP_FETCH_TIMEOUT_MS, maxResponseBytes: IDP_DOCUMENT_MAX_BYTES });
  }

  /** A Configuration for the client, from the issuer's discovery document (cached, or fetched now). */
  async configuration(settings: OidcClientSettings, now: Date): Promise<oidcClient.Configuration> {
    const insecure = allowsInsecureHttp(settings.issuer);
    const metadata = await this.metadata(settings, now.getTime(), insecure);
    const config = new oidcClient.Configuration(metadata, settings.clientId, settings.clientSecret);
    config.timeout = IDP_FETCH_TIMEOUT_MS / 1000;
    config[oidcClient.customFetch] = this.fetch;
    if (insecure) oidcClient.allowInsecureRequests(config);
    oidcClient.enableNonRepudiationChecks(config);
    const keys = this.entries.get(settings.issuer)?.keys;
    if (keys) oidcClient.setJwksCache(config, keys);
    return config;
  }

  /** Keeps the issuer's key set a sign-in fetched, for the next sign-ins (while the entry lives). */
  keepKeys(issuer: string, config: oidcClient.Configuration): void {
    const entry = this.entries.get(issuer);
    const keys = oidcClient.getJwksCache(config);
    if (entry && keys) entry.keys = keys;
  }

  /** Drops an issuer's document (its connection changed or went away). */
  invalidate(issuer: string): void {
    this.entries.delete(issuer);
  }

  private async metadata(settings: OidcClientSettings, now: number, insecure: boolean) {
    const cached = this.entries.get(settings.issuer);
    if (cached && now - cached.fetchedAt < this.ttlMs && cached.fetchedAt > Date.parse(settings.connectionUpdatedAt))
      return cached.metadata;
    const discovered = await oidcClient.discovery(
      new URL(settings.issuer),
      settings.clientId,
      settings.clientSecret,
      undefined,
      {
        [oidcClient.customFetch]: this.fetch,
        timeout: IDP_FETCH_TIMEOUT_MS / 1000,
        ...(insecure ? { execute: [oidcClient.allowInsecureRequests] } : {}),
      },
    );
    const metadata = { ...discovered.serverMetadata() };
    if (this.ttlMs > 0) this.entries.set(settings.issuer, { metadata, fetchedAt: now });
    return metadata;
  }
}
