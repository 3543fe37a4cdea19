// Organizations, through the Store port: each tenant's name, plan, settings and rate limits.
import type { Outbox, PendingEvent } from "@verdict/outbox";
import type { Collection, Store } from "@verdict/store";
import type { OrgSettings, Plan, RateLimitOverrides } from "../domain/organization.js";
import { IDENTITY_COLLECTIONS } from "./collections.js";

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

export class OrganizationRepo {
  private readonly orgs: Collection<OrgRecord>;

  constructor(
    store: Store,
    private readonly outbox: Outbox,
  ) {
    this.orgs = store.collection<OrgRecord>(IDENTITY_COLLECTIONS.orgs);
  }

  /**
   * Stores a new organization (DuplicateKeyError when its id is taken) with the events that
   * announce it (its first audit event).
   */
  insert(org: OrgRecord, events: PendingEvent[] = []): Promise<void> {
    return this.outbox.insert(this.orgs, org, events);
  }

  /**
   * Sets fields of an organization (dotted paths reach into settings) with the events that
   * announce the change (its audit event); null when there is none.
   */
  update(organizationId: string, set: Record<string, unknown>, events: PendingEvent[] = []): Promise<OrgRecord | null> {
    return this.outbox.update(this.orgs, { id: organizationId }, set as Partial<OrgRecord>, events);
  }

  /** How many organizations the instance holds. */
  count(): Promise<number> {
    return this.orgs.count({});
  }

  /** The organizations that set an audit retention (the retention sweep's work). */
  withAuditRetention(): Promise<OrgRecord[]> {
    return this.orgs.find({ "settings.audit_retention_days": { $gt: 0 } });
  }

  find(organizationId: string): Promise<OrgRecord | null> {
    return this.orgs.findOne({ id: organizationId });
  }

  /** The instance's default organization (the instance operator's), once bootstrap made it. */
  defaultOrganization(): Promise<OrgRecord | null> {
    return this.orgs.findOne({ is_default: true });
  }

  async init(): Promise<void> {
    await this.orgs.ensureIndexes([{ name: "is_default", fields: { is_default: 1 } }]);
    await this.outbox.register(this.orgs);
  }
}
