// The evaluation service's collection, through the Store port. File contents are never stored:
// only the result of checking them.
import { errors } from "@verdict/kit";
import { OutboxRepository, type Outbox, type PendingEvent } from "@verdict/outbox";
import { collectionDef, DuplicateKeyError, type Filter, type Operators, type Store } from "@verdict/store";
import type { ListQuery } from "./domain/listQuery.js";
import type { EvaluationStatus, Summary } from "./domain/evaluation.js";
import type { evaluationV1 } from "@verdict/proto";
import type { SuppressedFinding } from "./domain/engine.js";
import {
  fitsQueue,
  liveReservations,
  queueUse,
  type QueueCaps,
  type QueueReservation,
  type QueueUse,
} from "./domain/queueRoom.js";

/** A violation as stored and answered: the contract's message (proto/verdict/evaluation). */
export type Violation = evaluationV1.Violation;

export interface EvaluationRecord {
  id: string;
  organization_id: string;
  status: EvaluationStatus;
  repository: string;
  ref: string;
  base_ref: string;
  created_at: string;
  /** created_at's UTC day (YYYY-MM-DD): what the overview's figures group by. */
  created_day?: string;
  completed_at: string | null;
  passed: boolean | null;
  summary: Summary;
  violations: Violation[];
  failure_reason: string | null;
  /** The policies that ran: evidence of what was checked. */
  policies: string[];
  /** The policy ids the request named (empty: all enabled), for a deferred run. */
  requested_policies: string[];
  /** Findings silenced inline: bypass events, kept as compliance evidence. */
  suppressions: SuppressedFinding[];
  /**
   * Paths of the files the engine read (not skipped, not empty): compliance evidence of which
   * files the policies could apply to. Absent on evaluations stored before it was recorded.
   */
  scanned_paths?: string[];
  /** The request bypassed its findings with this reason: they are recorded as suppressions. */
  bypass_reason?: string;
  /** Bytes of content a queued evaluation holds (the per-organization queue cap counts them). */
  queued_bytes?: number;
  /** The caller's key for the request that made it (CreateEvaluationRequest.request_id). */
  request_id?: string;
  deleted_at: null;
}

/** One file of an evaluation waiting for a worker; deleted once the evaluation finishes. */
export interface JobFile {
  id: string;
  evaluation_id: string;
  organization_id: string;
  index: number;
  path: string;
  status: string;
  /** The content as text; empty when it is spooled (see JobFiles). */
  content: string;
  /** The content is in the spool directory of the instance that queued it. */
  spooled?: boolean;
  created_at: string;
}

/** What is left of a deleted evaluation: enough to answer 410 rather than 404. */
export interface EvaluationTombstone {
  id: string;
  organization_id: string;
  deleted_at: string;
}

export type EvaluationDoc = EvaluationRecord | EvaluationTombstone;

/**
 * One organization's places in the queue of asynchronous evaluations (id: the organization's id).
 * The caps are enforced on this one document: a place is taken with a compare-and-set on
 * `version`, so two requests (or two instances sharing the store) never both take the last one.
 */
export interface QueueLedger {
  id: string;
  organization_id: string;
  version: number;
  reservations: QueueReservation[];
}

/** Whether a place was taken; when not, what the organization's queue holds. */
export type QueueRoom = { reserved: true } | { reserved: false; use: QueueUse };

/**
 * Compare-and-set rounds before a reservation gives up (503): each lost round means another
 * request of the organization moved its ledger on, so this bounds only a pathological pile-up.
 */
const LEDGER_ATTEMPTS = 50;

export function isTombstone(doc: EvaluationDoc): doc is EvaluationTombstone {
  return doc.deleted_at !== null;
}

/** Fields dropped when an evaluation becomes a tombstone. */
export const TOMBSTONE_DROPS: readonly (keyof EvaluationRecord)[] = [
  "status",
  "repository",
  "ref",
  "base_ref",
  "created_at",
  "created_day",
  "completed_at",
  "passed",
  "summary",
  "violations",
  "failure_reason",
  "policies",
  "requested_policies",
  "suppressions",
  "bypass_reason",
  "queued_bytes",
  "scanned_paths",
];

/**
 * The collections and the indexes their queries use. The evaluations': one per list filter, each
 * ending in id (the list sorts and pages by id).
 */
const COLLECTIONS = {
  evaluations: collectionDef<EvaluationDoc>("evaluation_evaluations", [
    { name: "org_id", fields: { organization_id: 1, id: 1 } },
    { name: "org_repository_id", fields: { organization_id: 1, repository: 1, id: 1 } },
    { name: "org_status_id", fields: { organization_id: 1, status: 1, id: 1 } },
    { name: "org_passed_id", fields: { organization_id: 1, passed: 1, id: 1 } },
    { name: "status_id", fields: { status: 1, id: 1 } },
    // The overview's figures: an organization's evaluations in a time range.
    { name: "org_created_at", fields: { organization_id: 1, created_at: 1 } },
    // A repeated request's evaluation (CreateEvaluationRequest.request_id).
    { name: "org_request_id", fields: { organization_id: 1, request_id: 1 } },
  ]),
  /**
   * Files of asynchronous evaluations, one document per file (a whole change can exceed what one
   * MongoDB document may hold). Persisted before the request is answered, so a restart loses
   * no queued work.
   */
  jobFiles: collectionDef<JobFile>("evaluation_job_files", [
    { name: "evaluation_index", fields: { evaluation_id: 1, index: 1 } },
  ]),
  /** Per organization, the places taken in the queue (see QueueLedger). */
  queueLedgers: collectionDef<QueueLedger>("evaluation_queue_ledgers"),
};

export class EvaluationRepo extends OutboxRepository<typeof COLLECTIONS> {
  constructor(store: Store, outbox: Outbox) {
    super(store, outbox, COLLECTIONS, ["evaluations"]);
  }

  override async init(): Promise<void> {
    await super.init();
    await this.backfillCreatedDay();
  }

  /** Evaluations stored before created_day was kept get it, a batch at a time (once). */
  private async backfillCreatedDay(): Promise<void> {
    for (;;) {
      const batch = (await this.c.evaluations.find(
        { created_day: { $exists: false }, deleted_at: null },
        { limit: 500 },
      )) as EvaluationRecord[];
      if (batch.length === 0) return;
      for (const e of batch)
        await this.c.evaluations.updateOne({ id: e.id, deleted_at: null }, { created_day: e.created_at.slice(0, 10) });
    }
  }

  /** Finished evaluations of the organization created in [since, until). */
  private statsFilter(organizationId: string, since: string, until: string): Filter {
    return {
      organization_id: organizationId,
      deleted_at: null,
      status: "completed",
      created_at: { $gte: since, $lt: until },
    };
  }

  /** Per `field` (a document field) and outcome: how many evaluations, and their violations. */
  private async statsPerOutcome(organizationId: string, since: string, until: string, field: string) {
    const rows = await this.c.evaluations.group(this.statsFilter(organizationId, since, until), {
      by: { value: field, passed: "passed" },
      sum: { violations: "summary.total_violations" },
    });
    return rows.map((r) => ({
      value: String(r.key.value),
      passed: r.key.passed as boolean | null,
      count: r.count,
      violations: r.sums.violations ?? 0,
    }));
  }

  /** Per UTC day and outcome: how many evaluations, and their violations. */
  async statsPerDay(organizationId: string, since: string, until: string) {
    const rows = await this.statsPerOutcome(organizationId, since, until, "created_day");
    return rows.map(({ value, ...row }) => ({ day: value, ...row }));
  }

  /** Violations kept on the evaluations, per policy. */
  async statsPerPolicy(organizationId: string, since: string, until: string) {
    const rows = await this.c.evaluations.group(this.statsFilter(organizationId, since, until), {
      by: { policy_id: "violations.policy_id" },
      unwind: "violations",
    });
    return rows.map((r) => ({ policy_id: String(r.key.policy_id), violations: r.count }));
  }

  /** Per repository and outcome: how many evaluations, and their violations. */
  async statsPerRepository(organizationId: string, since: string, until: string) {
    const rows = await this.statsPerOutcome(organizationId, since, until, "repository");
    return rows.map(({ value, ...row }) => ({ repository: value, ...row }));
  }

  /** The organization's evaluation made for the caller's request key, if any. */
  async findByRequestId(organizationId: string, requestId: string): Promise<EvaluationRecord | null> {
    const doc = await this.c.evaluations.findOne({ organization_id: organizationId, request_id: requestId });
    return doc && doc.deleted_at === null ? (doc as EvaluationRecord) : null;
  }

  /** An evaluation of the organization, or what is left of it once deleted (a tombstone). */
  findDoc(organizationId: string, evaluationId: string): Promise<EvaluationDoc | null> {
    return this.c.evaluations.findOne({ id: evaluationId, organization_id: organizationId });
  }

  /**
   * A page of the organization's evaluations, newest first (ids are time-sortable), with one row
   * more than the page holds when another page exists; deleted evaluations never appear.
   */
  async listPage(organizationId: string, query: ListQuery): Promise<EvaluationRecord[]> {
    const filter: Filter = { organization_id: organizationId, deleted_at: null };
    if (query.repository !== undefined) filter.repository = query.repository;
    if (query.status !== undefined) filter.status = query.status;
    if (query.passed !== undefined) filter.passed = query.passed;
    const createdAt: Operators = {};
    if (query.since !== undefined) createdAt.$gte = query.since;
    if (query.until !== undefined) createdAt.$lt = query.until;
    if (Object.keys(createdAt).length) filter.created_at = createdAt;
    if (query.beforeId !== undefined) filter.id = { $lt: query.beforeId };
    return (await this.c.evaluations.find(filter, { sort: { id: -1 }, limit: query.limit + 1 })) as EvaluationRecord[];
  }

  /**
   * How many evaluations of the organization are stored as pending, and the bytes of content they
   * hold (the caps read queueUse, which adds the places reserved for evaluations being stored).
   */
  async queued(organizationId: string): Promise<{ count: number; bytes: number }> {
    const pending = await this.pendingOf(organizationId);
    return { count: pending.length, bytes: pending.reduce((n, e) => n + (e.queued_bytes ?? 0), 0) };
  }

  /**
   * Takes a place in the organization's queue for an evaluation of `bytes` (before its files are
   * written), or says what the queue holds when one more would pass the caps. Atomic across
   * requests and instances: the check and the write are one compare-and-set on the ledger's
   * version, retried from a fresh read when another request moved the ledger on meanwhile.
   * Reservations that stopped counting (see liveReservations) are dropped with the write.
   */
  async reserveQueueRoom(
    organizationId: string,
    evaluationId: string,
    bytes: number,
    caps: QueueCaps,
    now: Date,
  ): Promise<QueueRoom> {
    for (let attempt = 0; attempt < LEDGER_ATTEMPTS; attempt++) {
      const { ledger, live, use } = await this.queueState(organizationId, now);
      if (!fitsQueue(use, bytes, caps)) return { reserved: false, use };
      const reservation: QueueReservation = { evaluation_id: evaluationId, bytes, reserved_at: now.toISOString() };
      if (await this.writeLedger(organizationId, ledger, [...live, reservation])) return { reserved: true };
    }
    throw errors.unavailable("The organization's queue is too busy to take an evaluation now; retry shortly");
  }

  /**
   * Gives back an evaluation's place in the queue (it finished, failed or was deleted, or was
   * never stored). Idempotent; when it keeps losing the race, the place is dropped by the next
   * reservation instead, as the evaluation is not pending any more.
   */
  async releaseQueueRoom(organizationId: string, evaluationId: string): Promise<void> {
    for (let attempt = 0; attempt < LEDGER_ATTEMPTS; attempt++) {
      const ledger = await this.c.queueLedgers.findOne({ id: organizationId });
      if (!ledger?.reservations.some((r) => r.evaluation_id === evaluationId)) return;
      const rest = ledger.reservations.filter((r) => r.evaluation_id !== evaluationId);
      if (await this.writeLedger(organizationId, ledger, rest)) return;
    }
  }

  /** What the organization's queue holds now (its live reservations and pending evaluations); writes nothing. */
  async queueUse(organizationId: string, now: Date): Promise<QueueUse> {
    return (await this.queueState(organizationId, now)).use;
  }

  /**
   * The ledger as stored (null: none yet), the reservations that still count, and what the queue
   * holds. The ledger is read first: an evaluation seen pending or gone afterwards is at least as
   * far along as when the ledger was read, so a reservation is never dropped while it counts.
   */
  private async queueState(organizationId: string, now: Date) {
    const ledger = await this.c.queueLedgers.findOne({ id: organizationId });
    const reservations = ledger?.reservations ?? [];
    const pending = new Map((await this.pendingOf(organizationId)).map((e) => [e.id, e.queued_bytes ?? 0]));
    const unsure = reservations.map((r) => r.evaluation_id).filter((id) => !pending.has(id));
    const left = new Set<string>();
    if (unsure.length)
      for (const doc of await this.c.evaluations.find({ organization_id: organizationId, id: { $in: unsure } }))
        if (isTombstone(doc) || doc.status !== "pending") left.add(doc.id);
    const live = liveReservations(reservations, { pending, left }, now);
    return { ledger, live, use: queueUse(live, pending) };
  }

  /** Replaces the ledger's reservations if nobody changed it since `read`; false when somebody did. */
  private async writeLedger(
    organizationId: string,
    read: QueueLedger | null,
    reservations: QueueReservation[],
  ): Promise<boolean> {
    if (!read) {
      try {
        await this.c.queueLedgers.insertOne({
          id: organizationId,
          organization_id: organizationId,
          version: 1,
          reservations,
        });
        return true;
      } catch (err) {
        if (err instanceof DuplicateKeyError) return false;
        throw err;
      }
    }
    const next = { version: read.version + 1, reservations };
    return (await this.c.queueLedgers.updateOne({ id: organizationId, version: read.version }, next)) !== null;
  }

  /** The organization's pending evaluations. */
  private async pendingOf(organizationId: string): Promise<EvaluationRecord[]> {
    return (await this.c.evaluations.find({
      organization_id: organizationId,
      status: "pending",
      deleted_at: null,
    })) as EvaluationRecord[];
  }

  /** Every organization's evaluations still pending, oldest first (recovery at start-up). */
  async pending(): Promise<EvaluationRecord[]> {
    return (await this.c.evaluations.find(
      { status: "pending", deleted_at: null },
      { sort: { id: 1 } },
    )) as EvaluationRecord[];
  }

  /** Turns a live evaluation into a tombstone; false when it was deleted already (a concurrent delete). */
  async tombstone(
    organizationId: string,
    evaluationId: string,
    deletedAt: string,
    events: PendingEvent[] = [],
  ): Promise<boolean> {
    const updated = await this.outbox.update(
      this.c.evaluations,
      { id: evaluationId, organization_id: organizationId, deleted_at: null },
      { deleted_at: deletedAt },
      events,
      [...TOMBSTONE_DROPS],
    );
    return updated !== null;
  }

  /** Stores a new evaluation (finished, or queued) and the events it implies in one write. */
  async insert(evaluation: EvaluationRecord, events: PendingEvent[]): Promise<void> {
    await this.outbox.insert(this.c.evaluations, evaluation, events);
  }

  /**
   * Moves a pending evaluation to its finished form (`next`) with its events, once: false when it
   * was not pending any more (delivered twice, finished or deleted meanwhile).
   */
  async finishPending(next: EvaluationRecord, events: PendingEvent[]): Promise<boolean> {
    const { id: _id, ...fields } = next;
    const filter = { id: next.id, organization_id: next.organization_id, status: "pending", deleted_at: null };
    return (await this.outbox.update(this.c.evaluations, filter, fields, events)) !== null;
  }

  /** Stores one file's record of a queued evaluation. */
  async addJobFile(file: JobFile): Promise<void> {
    await this.c.jobFiles.insertOne(file);
  }

  /** The file records of a queued evaluation, in order. */
  jobFilesOf(evaluationId: string): Promise<JobFile[]> {
    return this.c.jobFiles.find({ evaluation_id: evaluationId }, { sort: { index: 1 } });
  }

  /** Deletes the file records of an evaluation. */
  async dropJobFiles(evaluationId: string): Promise<void> {
    await this.c.jobFiles.deleteMany({ evaluation_id: evaluationId });
  }

  /**
   * The evaluations whose files were queued before `cutoff`: every queued evaluation has a file at
   * index 0, so one record per evaluation is read.
   */
  async queuedFilesBefore(cutoff: string): Promise<string[]> {
    return (await this.c.jobFiles.find({ index: 0, created_at: { $lt: cutoff } })).map((f) => f.evaluation_id);
  }
}
