// The SSO collections, through the Store port: connections (one per organization), claimed
// email domains, and the state of sign-ins under way at an IdP (shared by every replica).
import { randomBytes } from "node:crypto";
import type { Collection, Store } from "@verdict/store";
import type { Role } from "../domain/member.js";
import type { SsoType } from "../domain/sso.js";

/** id = organization_id: one connection per organization. */
export interface SsoConnectionRecord {
  id: string;
  organization_id: string;
  type: SsoType;
  oidc: { issuer: string; client_id: string; client_secret_sealed: string } | null;
  saml: {
    idp_entity_id: string;
    idp_sso_url: string;
    idp_certificates: string[];
    idp_metadata_url: string;
    /**
     * The admin gave the certificate itself (idp_certificate): it is the one trusted, whatever
     * the metadata URL publishes later, so it is never refreshed from there.
     */
    idp_certificate_pinned?: boolean;
    /** When the certificates were last read again from idp_metadata_url (after a signature failed). */
    certificates_refreshed_at?: string | null;
  } | null;
  default_role: Role;
  enforce: boolean;
  created_at: string;
  updated_at: string;
}

/** A domain an organization claims. id = `<organization_id>.<domain>`; verified by an operator. */
export interface SsoDomainRecord {
  id: string;
  organization_id: string;
  domain: string;
  verification_token: string;
  verified_at: string | null;
  created_at: string;
}

/**
 * A sign-in sent to an IdP and not back yet. id = SHA-256 of the state (OIDC) or RelayState
 * (SAML) handed to the browser; deleted when it comes back (one use).
 */
export interface SsoStateRecord {
  id: string;
  organization_id: string;
  protocol: SsoType;
  /** OIDC: PKCE verifier and nonce. SAML: the AuthnRequest's ID (InResponseTo). */
  code_verifier: string | null;
  nonce: string | null;
  request_id: string | null;
  request_instant: string | null;
  /** SHA-256 of the SSO cookie of the browser that started the sign-in (absent: kept before it was). */
  browser_hash?: string;
  expires_at: string;
}

export class SsoRepo {
  private readonly connections: Collection<SsoConnectionRecord>;
  private readonly domains: Collection<SsoDomainRecord>;
  private readonly states: Collection<SsoStateRecord>;

  constructor(store: Store) {
    this.connections = store.collection<SsoConnectionRecord>("identity_sso_connections");
    this.domains = store.collection<SsoDomainRecord>("identity_sso_domains");
    this.states = store.collection<SsoStateRecord>("identity_sso_states");
  }

  domainsOf(organizationId: string): Promise<SsoDomainRecord[]> {
    return this.domains.find({ organization_id: organizationId }, { sort: { domain: 1 } });
  }

  /** The organization a domain is verified for, across the instance. */
  verifiedDomain(domain: string): Promise<SsoDomainRecord | null> {
    return this.domains.findOne({ domain, verified_at: { $ne: null } });
  }

  /** The organization's SSO connection (one at most). */
  connectionOf(organizationId: string): Promise<SsoConnectionRecord | null> {
    return this.connections.findOne({ id: organizationId });
  }

  /** Stores the organization's connection, replacing the one it had (`replacing`). */
  async saveConnection(connection: SsoConnectionRecord, replacing: boolean): Promise<void> {
    if (replacing) await this.connections.updateOne({ id: connection.id }, connection);
    else await this.connections.insertOne(connection);
  }

  /**
   * Sets the SAML part of a connection unless it changed since it was read (`updated_at`, and
   * when given the certificates' refresh time as read): null when it did.
   */
  updateSamlIfUnchanged(
    connection: SsoConnectionRecord,
    saml: SsoConnectionRecord["saml"],
    refreshedAt?: string | null,
  ): Promise<SsoConnectionRecord | null> {
    return this.connections.updateOne(
      {
        id: connection.id,
        updated_at: connection.updated_at,
        ...(refreshedAt !== undefined ? { "saml.certificates_refreshed_at": refreshedAt } : {}),
      },
      { saml },
    );
  }

  /** Deletes the organization's connection and every domain it claimed. */
  async deleteConnection(organizationId: string): Promise<void> {
    await this.connections.deleteOne({ id: organizationId });
    await this.domains.deleteMany({ organization_id: organizationId });
  }

  /** The organization claims exactly these domains: others are dropped, new ones claimed unverified. */
  async claimDomains(organizationId: string, domains: string[], at: string): Promise<void> {
    const before = await this.domainsOf(organizationId);
    for (const d of before) if (!domains.includes(d.domain)) await this.domains.deleteOne({ id: d.id });
    for (const d of domains) {
      if (before.some((b) => b.domain === d)) continue;
      await this.domains.insertOne({
        id: `${organizationId}.${d}`,
        organization_id: organizationId,
        domain: d,
        verification_token: randomBytes(16).toString("hex"),
        verified_at: null,
        created_at: at,
      });
    }
  }

  /** The organization's claim of a domain. */
  domainClaim(organizationId: string, domain: string): Promise<SsoDomainRecord | null> {
    return this.domains.findOne({ id: `${organizationId}.${domain}` });
  }

  /** Any organization's claim of a domain, verified or not. */
  anyClaimOf(domain: string): Promise<SsoDomainRecord | null> {
    return this.domains.findOne({ domain });
  }

  async markDomainVerified(claimId: string, at: string): Promise<void> {
    await this.domains.updateOne({ id: claimId }, { verified_at: at });
  }

  /** Keeps a sign-in under way until the identity provider sends the person back. */
  async startSignIn(state: SsoStateRecord): Promise<void> {
    await this.states.insertOne(state);
  }

  /** The organization's sign-ins under way (not back from the identity provider yet). */
  signInsUnderWay(organizationId: string): Promise<SsoStateRecord[]> {
    return this.states.find({ organization_id: organizationId });
  }

  /** Takes a sign-in under way, once: only the first caller gets it (null for the others). */
  async takeSignIn(id: string, protocol: SsoStateRecord["protocol"]): Promise<SsoStateRecord | null> {
    const pending = await this.states.findOne({ id, protocol });
    if (!pending || !(await this.states.deleteOne({ id }))) return null;
    return pending;
  }

  /** Deletes the sign-ins that expired before `now` without coming back (served by expires_at). */
  deleteExpiredStates(now: Date): Promise<number> {
    return this.states.deleteMany({ expires_at: { $lt: now.toISOString() } });
  }

  async init(): Promise<void> {
    await this.domains.ensureIndexes([
      { name: "domain", fields: { domain: 1 } },
      { name: "org_id", fields: { organization_id: 1, id: 1 } },
    ]);
    await this.states.ensureIndexes([{ name: "expires_at", fields: { expires_at: 1 } }]);
  }
}
