// The audit log, through the Store port: what was done in an organization, by whom, appended with
// the bus event that publishes it (see @verdict/outbox), at the end of the organization's hash
// chain (seq, prev_hash, hash: @verdict/sdk's auditChain). A unique (organization, seq) index
// makes the chain linear: two appends racing for one number cannot both win; the loser re-reads
// the end and tries again. Nothing here updates an event; only the retention sweep deletes, and
// only a run from the start of the chain, behind a checkpoint (the seq and hash of the last event
// it deleted) that the kept chain links to, so the rest stays verifiable (docs/audit.md).
import type { Outbox, PendingEvent } from "@verdict/outbox";
import { DuplicateKeyError, storableKeys, storedKeys, type Collection, type Filter, type Store } from "@verdict/store";
import { chainAuditEvent, type AuditType } from "../domain/audit.js";
import { IDENTITY_COLLECTIONS } from "./collections.js";

export interface AuditRecord {
  id: string;
  organization_id: string;
  type: AuditType;
  actor: { type: "user" | "api_key" | "system" | "anonymous"; id: string; ip: string };
  /** How the actor authenticated (api_key, session, oauth_client); absent on older events. */
  credential?: { type: string; id: string } | null;
  /** The request that made the change (X-Request-Id); absent on older events. */
  request_id?: string | null;
  target_type: string;
  target_id: string;
  occurred_at: string;
  data: Record<string, unknown>;
  /** The event's number in its organization's chain (1, 2, …). */
  seq: number;
  /** The hash of the event before it (zeros for the first). */
  prev_hash: string;
  /** SHA-256 of its canonical form (docs/audit.md). */
  hash: string;
}

/**
 * An event as stored, read back: its data's keys (a change's "settings.require_mfa") are stored
 * percent-encoded, since FerretDB refuses "." in a key (storableKeys in @verdict/store).
 */
const readable = (r: AuditRecord): AuditRecord => ({ ...r, data: storedKeys(r.data) });

/** The last event the retention sweep deleted from an organization's chain (id: the organization's). */
export interface AuditCheckpoint {
  id: string;
  seq: number;
  hash: string;
  swept_at: string;
}

/** An event before it takes its place in the chain. */
export type UnchainedAuditRecord = Omit<AuditRecord, "seq" | "prev_hash" | "hash">;

export class AuditRepo {
  private readonly events: Collection<AuditRecord>;
  private readonly checkpoints: Collection<AuditCheckpoint>;

  constructor(
    store: Store,
    private readonly outbox: Outbox,
  ) {
    this.events = store.collection<AuditRecord>(IDENTITY_COLLECTIONS.audit);
    this.checkpoints = store.collection<AuditCheckpoint>(IDENTITY_COLLECTIONS.auditCheckpoints);
  }

  /**
   * Appends an event at the end of its organization's chain, with the bus event that publishes
   * it (written together). Throws DuplicateKeyError when an event with this id is there already.
   */
  async append(record: UnchainedAuditRecord, eventOf: (r: AuditRecord) => PendingEvent): Promise<AuditRecord> {
    for (;;) {
      const chained = chainAuditEvent(record, await this.last(record.organization_id));
      try {
        await this.outbox.insert(this.events, { ...chained, data: storableKeys(chained.data) }, [eventOf(chained)]);
        return chained;
      } catch (err) {
        if (!(err instanceof DuplicateKeyError) || (await this.events.findOne({ id: record.id }))) throw err;
        // Another append took this number: read the new end of the chain and try again.
      }
    }
  }

  private async last(organizationId: string): Promise<{ seq: number; hash: string } | null> {
    const [last] = await this.events.find(
      { organization_id: organizationId, seq: { $exists: true } },
      { sort: { seq: -1 }, limit: 1 },
    );
    if (last) return { seq: last.seq, hash: last.hash };
    // Every event was past the retention: the chain goes on from the checkpoint.
    const checkpoint = await this.checkpoint(organizationId);
    return checkpoint ? { seq: checkpoint.seq, hash: checkpoint.hash } : null;
  }

  /** The organization's events in chain order, after a number (the export), at most `limit`. */
  async chainPage(organizationId: string, afterSeq: number, limit: number): Promise<AuditRecord[]> {
    const page = await this.events.find(
      { organization_id: organizationId, seq: { $gt: afterSeq } },
      { sort: { seq: 1 }, limit },
    );
    return page.map(readable);
  }

  /** Where the organization's kept chain starts: the last event the retention sweep deleted (null: none). */
  checkpoint(organizationId: string): Promise<AuditCheckpoint | null> {
    return this.checkpoints.findOne({ id: organizationId });
  }

  /**
   * Deletes the run of the organization's events, from the start of its chain, that occurred
   * before `cutoff` (an event that occurred later ends the run: the chain loses no event from its
   * middle). The checkpoint moves to the run's last event first, so a crash between the two
   * leaves events the export no longer shows, deleted by the next sweep. Returns how many went.
   */
  async deleteBefore(organizationId: string, cutoff: string, sweptAt: string): Promise<number> {
    const previous = await this.checkpoint(organizationId);
    const [firstKept] = await this.events.find(
      { organization_id: organizationId, seq: { $gt: previous?.seq ?? 0 }, occurred_at: { $gte: cutoff } },
      { sort: { seq: 1 }, limit: 1 },
    );
    const [lastGone] = await this.events.find(
      { organization_id: organizationId, seq: firstKept ? { $lt: firstKept.seq } : { $exists: true } },
      { sort: { seq: -1 }, limit: 1 },
    );
    let upTo = previous?.seq ?? 0;
    if (lastGone && lastGone.seq > upTo) {
      const moved = { id: organizationId, seq: lastGone.seq, hash: lastGone.hash, swept_at: sweptAt };
      // Another replica's sweep moved it since: the next sweep goes on from there.
      if (!(await this.moveCheckpoint(previous, moved))) return 0;
      upTo = lastGone.seq;
    }
    return upTo ? this.events.deleteMany({ organization_id: organizationId, seq: { $lte: upTo } }) : 0;
  }

  /** Replaces the checkpoint read as `previous` (none: the first); false when it is no longer that one. */
  private async moveCheckpoint(previous: AuditCheckpoint | null, next: AuditCheckpoint): Promise<boolean> {
    if (previous) return (await this.checkpoints.updateOne({ id: next.id, seq: previous.seq }, next)) !== null;
    try {
      await this.checkpoints.insertOne(next);
      return true;
    } catch (err) {
      if (err instanceof DuplicateKeyError) return false;
      throw err;
    }
  }

  /** Whether the organization's audit log holds this event (a cursor names one of its own). */
  async has(organizationId: string, id: string): Promise<boolean> {
    return (await this.events.findOne({ id, organization_id: organizationId })) !== null;
  }

  /**
   * A page of the organization's audit events, newest first (ids are time-sortable): those
   * matching the filter (type, actor.id, target_type, target_id, occurred_at, id below a
   * cursor), at most `limit`.
   */
  async page(organizationId: string, filter: Filter, limit: number): Promise<AuditRecord[]> {
    const page = await this.events.find({ ...filter, organization_id: organizationId }, { sort: { id: -1 }, limit });
    return page.map(readable);
  }

  async init(): Promise<void> {
    // The outbox publishes the events written with audit records, and sweeps up those a crash
    // left behind.
    await this.outbox.register(this.events);
    await this.events.ensureIndexes([
      { name: "org_id", fields: { organization_id: 1, id: -1 } },
      { name: "org_seq_probe", fields: { organization_id: 1, seq: -1 } },
      // The history of one object (GET /v1/audit-events?target_type=&target_id=), newest first.
      { name: "org_target", fields: { organization_id: 1, target_type: 1, target_id: 1, id: -1 } },
    ]);
    await this.chainEarlierEvents();
    await this.events.ensureIndexes([{ name: "org_seq", fields: { organization_id: 1, seq: 1 }, unique: true }]);
  }

  /**
   * Events an earlier version stored without a place in the chain take one, oldest first, after
   * the events already chained (at the first start of this version, and at a start during a
   * rolling upgrade, when old replicas still store such events).
   */
  private async chainEarlierEvents(): Promise<void> {
    for (;;) {
      const batch = await this.events.find({ seq: { $exists: false } }, { sort: { id: 1 }, limit: 500 });
      if (!batch.length) return;
      for (const record of batch) await this.chainEarlierEvent(record);
    }
  }

  /**
   * Gives one event the number after the chain's end. A replica that is already serving may
   * append at the same time and take that number first (the unique index refuses the second):
   * read the new end and try again, as `append` does. Another replica chaining the same event
   * first leaves nothing to do (the update matches no unchained event).
   */
  private async chainEarlierEvent(record: AuditRecord): Promise<void> {
    for (;;) {
      const chained = chainAuditEvent(readable(record), await this.last(record.organization_id));
      try {
        await this.events.updateOne(
          { id: record.id, seq: { $exists: false } },
          { seq: chained.seq, prev_hash: chained.prev_hash, hash: chained.hash },
        );
        return;
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err;
      }
    }
  }
}
