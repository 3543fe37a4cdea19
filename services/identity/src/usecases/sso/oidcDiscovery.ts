// OIDC discovery documents cached per issuer for VERDICT_OIDC_DISCOVERY_TTL_SECONDS, so a
// sign-in does not fetch the IdP's /.well-known/openid-configuration twice (authorize, then
// token). An entry older than the connection that uses it is fetched again: saving a connection
// (a new issuer, client or secret) invalidates it on every replica, since each reads the
// connection's updated_at from the store; the replica that saves also drops it at once.
import * as oidcClient from "openid-client";
import { allowsInsecureHttp } from "../../domain/sso.js";

interface Entry {
  metadata: oidcClient.ServerMetadata;
  fetchedAt: number;
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

  /** ttlMs 0: every sign-in step fetches the document. */
  constructor(readonly ttlMs: number) {}

  /** A Configuration for the client, from the issuer's discovery document (cached, or fetched now). */
  async configuration(settings: OidcClientSettings, now: Date): Promise<oidcClient.Configuration> {
    const insecure = allowsInsecureHttp(settings.issuer);
    const metadata = await this.metadata(settings, now.getTime(), insecure);
    const config = new oidcClient.Configuration(metadata, settings.clientId, settings.clientSecret);
    config.timeout = 10;
    if (insecure) oidcClient.allowInsecureRequests(config);
    return config;
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
      insecure ? { execute: [oidcClient.allowInsecureRequests], timeout: 10 } : { timeout: 10 },
    );
    const metadata = { ...discovered.serverMetadata() };
    if (this.ttlMs > 0) this.entries.set(settings.issuer, { metadata, fetchedAt: now });
    return metadata;
  }
}
