// The outbox: a state change and the events it implies are written in ONE single-document
// operation (the Store has no multi-document transactions), so a crash can never keep one and
// lose the other. Pending events ride inside the changed document (`_outbox`); a relay publishes
// them and then removes exactly the ones it published. Publishing is at-least-once (a crash
// after the publish and before the removal publishes again, with the same event id), so
// consumers are idempotent on the event id, as the Bus port already demands.
//
//   const outbox = new Outbox({ bus, logger });
//   await outbox.register(repo.things);                       // at start-up: index + sweeps
//   await outbox.insert(repo.things, doc, [outbox.event(TOPICS.x, { source, subject, data })]);
//   await outbox.update(repo.things, filter, set, [event]);   // conditional, like updateOne
//   await outbox.remove(repo.things, filter, [event]);        // delete + event
//   outbox.start(); … await outbox.stop();
import { type Bus } from "@verdict/bus";
import { newId, systemClock, type Clock, type Logger } from "@verdict/kit";
import {
  storableKeys,
  storedKeys,
  type Collection,
  type Doc,
  type Filter,
  type Operators,
  type Scalar,
} from "@verdict/store";

/** An event waiting in its document until the relay has published it. */
export interface PendingEvent {
  id: string;
  topic: string;
  source: string;
  subject?: string;
  data: unknown;
}

/** The fields the outbox keeps in a document. Services never set them themselves. */
export interface OutboxFields {
  _outbox?: PendingEvent[];
  /** When the oldest pending event was written; absent when none is pending (indexed: the relay's query). */
  _outbox_since?: string;
  /** Bumped by every outbox write: the guard that keeps concurrent writers from losing events. */
  _outbox_rev?: number;
  /** Set by remove(): the document goes once its events are out. */
  _outbox_delete?: boolean;
}

const OUTBOX_KEYS = ["_outbox", "_outbox_since", "_outbox_rev", "_outbox_delete"] as const;

export interface OutboxOptions {
  bus: Bus;
  logger: Logger;
  clock?: Clock;
  /**
   * How often the relay looks for events nobody published (a crash, the broker down); 5 s by
   * default, as long as the grace below: an event a publish missed goes out 5-10 s after its
   * write. Each sweep queries every registered collection, and a store that cannot use the
   * `_outbox_since` index for it (FerretDB v1 on SQLite reads the whole collection) spends CPU
   * in proportion: with sweeps each second it was the test cluster's busiest container.
   */
  sweepIntervalMs?: number;
  /**
   * A sweep leaves events younger than this to the process that wrote them (it publishes them
   * right after its write), so several instances rarely publish the same event twice.
   */
  graceMs?: number;
  /** How long a write waits for its own events to be published before returning anyway. */
  flushWaitMs?: number;
  /** Documents a sweep takes per collection at a time. */
  batchSize?: number;
}

type AnyCollection = Collection<Doc & OutboxFields>;

/** Removes the outbox's own fields from a document read through the Store. */
export function withoutOutbox<T extends object>(doc: T): T {
  const copy = { ...doc } as Record<string, unknown>;
  for (const k of OUTBOX_KEYS) delete copy[k];
  return copy as T;
}

export class Outbox {
  private readonly bus: Bus;
  private readonly logger: Logger;
  private readonly clock: Clock;
  private readonly sweepIntervalMs: number;
  private readonly graceMs: number;
  private readonly flushWaitMs: number;
  private readonly batchSize: number;
  private readonly collections = new Set<AnyCollection>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<number> | null = null;
  private stopped = false;

  constructor(opts: OutboxOptions) {
    this.bus = opts.bus;
    this.logger = opts.logger;
    this.clock = opts.clock ?? systemClock;
    this.sweepIntervalMs = opts.sweepIntervalMs ?? 5000;
    this.graceMs = opts.graceMs ?? 5000;
    this.flushWaitMs = opts.flushWaitMs ?? 2000;
    this.batchSize = opts.batchSize ?? 100;
  }

  /** An event to write with a state change; its id is fixed now, so every re-publish carries it. */
  event<T>(topic: string, input: { source: string; subject?: string; data: T }): PendingEvent {
    return {
      id: newId("evt"),
      topic,
      source: input.source,
      ...(input.subject ? { subject: input.subject } : {}),
      data: input.data,
    };
  }

  /** Makes the collection's pending events findable (an index) and swept. Call at start-up. */
  async register(...collections: Collection<Doc>[]): Promise<void> {
    for (const c of collections) {
      await c.ensureIndexes([{ name: "outbox_since", fields: { _outbox_since: 1 } }]);
      this.collections.add(c as AnyCollection);
    }
  }

  /** Inserts the document together with its events (throws DuplicateKeyError like insertOne). */
  async insert<T extends Doc>(collection: Collection<T>, doc: T, events: PendingEvent[]): Promise<void> {
    const clean = withoutOutbox(doc);
    const stored = events.length
      ? { ...clean, _outbox: events.map(storable), _outbox_since: this.now(), _outbox_rev: 1 }
      : { ...clean, _outbox_rev: 1 };
    await collection.insertOne(stored as T);
    if (events.length) await this.publishSoon(collection as unknown as AnyCollection, doc.id);
  }

  /**
   * Like updateOne: sets (and unsets) fields of the first document matching the filter and
   * returns it, or null when none matches; the events are appended to the ones still pending.
   * Concurrent writers are serialized by the revision, so no pending event is ever lost.
   */
  async update<T extends Doc>(
    collection: Collection<T>,
    filter: Filter,
    set: Partial<T>,
    events: PendingEvent[],
    unset: string[] = [],
  ): Promise<T | null> {
    const updated = await this.write(
      collection as unknown as AnyCollection,
      filter,
      withoutOutbox(set as object) as Partial<Doc & OutboxFields>,
      events,
      unset,
    );
    if (!updated) return null;
    if (events.length) await this.publishSoon(collection as unknown as AnyCollection, updated.id);
    return withoutOutbox(updated) as unknown as T;
  }

  /**
   * Deletes the first document matching the filter, with events that announce it. The document
   * is marked first (atomically with the events), then published and deleted; after a crash
   * the relay finishes both. Returns whether a document matched.
   */
  async remove<T extends Doc>(collection: Collection<T>, filter: Filter, events: PendingEvent[]): Promise<boolean> {
    const c = collection as unknown as AnyCollection;
    if (!events.length) return collection.deleteOne(filter);
    const marked = await this.write(
      c,
      { ...filter, _outbox_delete: { $exists: false } },
      { _outbox_delete: true },
      events,
      [],
    );
    if (!marked) return false;
    await this.publishSoon(c, marked.id);
    return true;
  }

  /** Starts the periodic sweep (and runs one at once: events a crash left behind). */
  start(): void {
    if (this.timer || this.stopped) return;
    void this.sweep(0);
    this.timer = setInterval(() => void this.sweep(), this.sweepIntervalMs);
    this.timer.unref();
  }

  /** Stops sweeping and waits for publishes under way. Events still pending stay in the store. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    while (this.inFlight.size || this.sweeping) await Promise.allSettled([...this.inFlight, this.sweeping]);
  }

  /**
   * Publishes the pending events of every registered collection that are older than the grace
   * period (0: all of them). Returns how many were published. One sweep at a time.
   */
  sweep(graceMs = this.graceMs): Promise<number> {
    if (this.sweeping) return this.sweeping;
    const run = (async () => {
      let published = 0;
      const cutoff = new Date(this.clock.now().getTime() - graceMs + (graceMs === 0 ? 1 : 0)).toISOString();
      for (const c of this.collections) {
        for (;;) {
          const docs = await c.find(
            { _outbox_since: { $lt: cutoff } },
            { sort: { _outbox_since: 1 }, limit: this.batchSize },
          );
          let progressed = 0;
          for (const doc of docs) {
            if (this.stopped) return published;
            const n = await this.flushDoc(c, doc.id);
            published += n;
            if (n) progressed++;
          }
          if (docs.length < this.batchSize || !progressed) break;
        }
      }
      return published;
    })()
      .catch((err) => {
        this.logger.warn({ err }, "outbox sweep failed; retrying on the next one");
        return 0;
      })
      .finally(() => {
        this.sweeping = null;
      });
    this.sweeping = run;
    return run;
  }

  private now(): string {
    return this.clock.now().toISOString();
  }

  /** Appends events and applies the change under the revision guard, retrying on a conflict. */
  private async write(
    c: AnyCollection,
    filter: Filter,
    set: Partial<Doc & OutboxFields>,
    events: PendingEvent[],
    unset: string[],
  ): Promise<(Doc & OutboxFields) | null> {
    for (;;) {
      const current = await c.findOne(filter);
      if (!current) return null;
      const pending = [...(current._outbox ?? []), ...events.map(storable)];
      const next: Partial<Doc & OutboxFields> = { ...set, _outbox_rev: (current._outbox_rev ?? 0) + 1 };
      const drop = [...unset];
      if (pending.length) {
        next._outbox = pending;
        next._outbox_since = current._outbox_since ?? this.now();
      } else {
        drop.push("_outbox", "_outbox_since");
      }
      const updated = await c.updateOne(
        { ...filter, id: current.id, _outbox_rev: revGuard(current._outbox_rev) },
        next,
        drop,
      );
      if (updated) return updated;
      // Another writer (or the relay) got there first: read again and re-check the filter.
    }
  }

  /** Publishes the document's events now, waiting a bounded time; the relay retries failures. */
  private async publishSoon(c: AnyCollection, id: string): Promise<void> {
    if (this.stopped) return;
    const p = this.flushDoc(c, id).catch((err) => {
      this.logger.warn({ err, document_id: id }, "outbox publish failed; the relay will retry");
    });
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([p, new Promise<void>((r) => (timer = setTimeout(r, this.flushWaitMs)))]);
    clearTimeout(timer);
  }

  /** Publishes one document's pending events in order, then removes exactly those. */
  private async flushDoc(c: AnyCollection, id: string): Promise<number> {
    const doc = await c.findOne({ id });
    if (!doc) return 0;
    const events = doc._outbox ?? [];
    for (const e of events) {
      await this.bus.publish(e.topic, {
        id: e.id,
        source: e.source,
        ...(e.subject ? { subject: e.subject } : {}),
        data: storedKeys(e.data),
      });
    }
    const published = new Set(events.map((e) => e.id));
    for (let current: (Doc & OutboxFields) | null = doc; current; current = await c.findOne({ id })) {
      const rest = (current._outbox ?? []).filter((e) => !published.has(e.id));
      const guard = { id, _outbox_rev: revGuard(current._outbox_rev) };
      if (!rest.length && current._outbox_delete) {
        if (await c.deleteOne(guard)) break;
        continue;
      }
      const set: Partial<Doc & OutboxFields> = { _outbox_rev: (current._outbox_rev ?? 0) + 1 };
      if (rest.length) set._outbox = rest;
      if (await c.updateOne(guard, set, rest.length ? [] : ["_outbox", "_outbox_since"])) {
        // Events appended meanwhile are published by their writer (or the next sweep).
        break;
      }
    }
    return events.length;
  }
}

/** A pending event as a document holds it: its data's keys stored so every store accepts them. */
const storable = (e: PendingEvent): PendingEvent => ({ ...e, data: storableKeys(e.data) });

function revGuard(rev: number | undefined): Scalar | Operators {
  return rev === undefined ? { $exists: false } : rev;
}
