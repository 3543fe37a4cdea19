// The identity service's collections, through the Store port.
import type { Collection, Store } from "@verdict/store";
import type { OrgSettings, Plan, RateLimitOverrides } from "./domain/organization.js";
import type { Environment } from "./domain/apiKey.js";

export interface OrgRecord {
  id: string;
  name: string;
  plan: Plan;
  created_at: string;
  settings: OrgSettings;
  rate_limits: RateLimitOverrides;
  /** The organization created at bootstrap; the operator key lives here. */
  is_default: boolean;
  version: number;
}

export interface KeyRecord {
  id: string;
  organization_id: string;
  name: string;
  scopes: string[];
  environment: Environment;
  prefix: string;
  hash: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
  ip_allowlist: string[];
  operator: boolean;
  /**
   * Set when a new VERDICT_BOOTSTRAP_API_KEY replaced this operator key: it stops working at
   * once and can then be revoked like any other key. Absent on keys stored before rotation.
   */
  retired_at?: string | null;
}

export interface MemberRecord {
  id: string;
  organization_id: string;
}

export class IdentityRepo {
  readonly orgs: Collection<OrgRecord>;
  readonly keys: Collection<KeyRecord>;
  readonly members: Collection<MemberRecord>;

  constructor(store: Store) {
    this.orgs = store.collection<OrgRecord>("identity_organizations");
    this.keys = store.collection<KeyRecord>("identity_api_keys");
    this.members = store.collection<MemberRecord>("identity_members");
  }

  async init(): Promise<void> {
    await this.orgs.ensureIndexes([{ name: "is_default", fields: { is_default: 1 } }]);
    await this.keys.ensureIndexes([
      { name: "hash", fields: { hash: 1 }, unique: true },
      { name: "org_id", fields: { organization_id: 1, id: 1 } },
    ]);
    await this.members.ensureIndexes([{ name: "org_id", fields: { organization_id: 1, id: 1 } }]);
  }
}
