// The audit log, through the Store port: what was done in an organization, by whom, appended with
// the bus event that publishes it (see @verdict/outbox).
import type { Outbox, PendingEvent } from "@verdict/outbox";
import type { Collection, Filter, Store } from "@verdict/store";
import type { AuditType } from "../domain/audit.js";
import { IDENTITY_COLLECTIONS } from "./collections.js";

export interface AuditRecord {
  id: string;
  organization_id: string;
  type: AuditType;
  actor: { type: "user" | "api_key" | "system"; id: string; ip: string };
  /** How the actor authenticated (api_key, session, oauth_client); absent on older events. */
  credential?: { type: string; id: string } | null;
  /** The request that made the change (X-Request-Id); absent on older events. */
  request_id?: string | null;
  target_type: string;
  target_id: string;
  occurred_at: string;
  data: Record<string, unknown>;
}

export class AuditRepo {
  private readonly events: Collection<AuditRecord>;

  constructor(
    store: Store,
    private readonly outbox: Outbox,
  ) {
    this.events = store.collection<AuditRecord>(IDENTITY_COLLECTIONS.audit);
  }

  /** Appends an event to the audit log with the bus event that publishes it (written together). */
  append(record: AuditRecord, event: PendingEvent): Promise<void> {
    return this.outbox.insert(this.events, record, [event]);
  }

  /** Whether the organization's audit log holds this event (a cursor names one of its own). */
  async has(organizationId: string, id: string): Promise<boolean> {
    return (await this.events.findOne({ id, organization_id: organizationId })) !== null;
  }

  /**
   * A page of the organization's audit events, newest first (ids are time-sortable): those
   * matching the filter (type, actor.id, occurred_at, id below a cursor), at most `limit`.
   */
  page(organizationId: string, filter: Filter, limit: number): Promise<AuditRecord[]> {
    return this.events.find({ ...filter, organization_id: organizationId }, { sort: { id: -1 }, limit });
  }

  async init(): Promise<void> {
    // The outbox publishes the events written with audit records, and sweeps up those a crash
    // left behind.
    await this.outbox.register(this.events);
    await this.events.ensureIndexes([{ name: "org_id", fields: { organization_id: 1, id: -1 } }]);
  }
}
