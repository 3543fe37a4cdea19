// MongoDB Store adapter (official `mongodb` driver). One collection per Store collection in one
// database; a document's `id` is its `_id`, so ids are unique by construction and id-keyed
// lookups and cursor pages ride the primary index. Only single-document operations, so it
// works on MongoDB and on FerretDB v1 alike (no transactions, no change streams).
//
// Conditional updates: on MongoDB, findOneAndUpdate matches and writes atomically. FerretDB v1
// does not (it reads, then writes by _id: of 8 writers racing on one `version`, 7 "won" in the
// contract test), so against FerretDB each update claims the document's revision first (an
// insert into `<collection>__claims` keyed `<id>:<rev>`, atomic through the unique _id), then
// re-checks the filter and writes `_rev + 1`. Writers of one document are serialized, a lost
// race answers null exactly as on MongoDB, and a claim left by a crashed writer is taken over
// after CLAIM_LEASE_MS.
import { errors } from "@verdict/kit";
import {
  MongoClient,
  MongoNetworkError,
  MongoOperationTimeoutError,
  MongoServerClosedError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
  type Collection as MongoCollection,
  type Db,
  type Document,
  type MongoClientOptions,
  type Sort,
} from "mongodb";
import {
  DuplicateKeyError,
  assertCollectionName,
  assertField,
  isOperators,
  type Collection,
  type Doc,
  type Filter,
  type FindOptions,
  type GroupRow,
  type GroupSpec,
  type IndexSpec,
  type Scalar,
  type Store,
} from "./port.js";

export interface MongoStoreOptions {
  uri: string;
  /** Database name; defaults to the one in the URI's path, else "verdict". */
  database?: string;
  /** Extra driver options (TLS files, pool size, ...). */
  client?: MongoClientOptions;
}

const DUPLICATE_KEY = 11000;
/** The adapter's revision counter (FerretDB path); never shown to callers. */
const REV = "_rev";
const CLAIM_LEASE_MS = 30_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const mongoField = (field: string): string => {
  assertField(field);
  return field === "id" ? "_id" : field;
};

/**
 * The port's filter subset, in Mongo's query language. Mongo already treats `null` as "null or
 * missing" in equality, `$ne`, `$in` and `$nin`, as the embedded adapter does. `$exists` is mapped to
 * `$ne: null` / `$eq: null` so a field holding null counts as absent, as it does in SQLite's
 * json_extract.
 */
export function toMongoFilter(filter: Filter): Document {
  const out: Document = {};
  for (const [field, cond] of Object.entries(filter)) {
    const key = mongoField(field);
    if (!isOperators(cond)) {
      out[key] = cond;
      continue;
    }
    const ops: Document = {};
    for (const [op, v] of Object.entries(cond)) {
      switch (op) {
        case "$eq":
        case "$ne":
        case "$gt":
        case "$gte":
        case "$lt":
        case "$lte":
          ops[op] = v as Scalar;
          break;
        case "$in":
          ops.$in = [...(v as Scalar[])];
          break;
        case "$nin":
          ops.$nin = [...(v as Scalar[])];
          break;
        case "$exists":
          ops.$exists = Boolean(v);
          break;
        default:
          throw new Error(`unsupported operator ${op}`);
      }
    }
    if ("$exists" in ops) {
      const exists = ops.$exists as boolean;
      delete ops.$exists;
      const nullCheck = exists ? { $ne: null } : { $eq: null };
      // $eq/$ne may sit in the same condition; $and keeps both.
      if (Object.keys(ops).length === 0) out[key] = nullCheck;
      else (out.$and ??= []).push({ [key]: nullCheck }, { [key]: ops });
      continue;
    }
    out[key] = ops;
  }
  return out;
}

function fromMongo<T extends Doc>(doc: Document | null): T | null {
  if (!doc) return null;
  const { _id, [REV]: _rev, ...rest } = doc;
  return { id: _id as string, ...rest } as unknown as T;
}

function toMongo(doc: Doc): Document {
  const { id, ...rest } = doc as Doc & Record<string, unknown>;
  return { _id: id, ...rest };
}

class MongoStoreCollection<T extends Doc> implements Collection<T> {
  constructor(
    private readonly coll: MongoCollection<Document>,
    private readonly claims: MongoCollection<{ _id: string; at: Date }>,
    private readonly name: string,
    private readonly atomicUpdates: () => Promise<boolean>,
  ) {}

  async ensureIndexes(specs: IndexSpec[]): Promise<void> {
    for (const spec of specs) {
      assertCollectionName(spec.name);
      const fields = Object.keys(spec.fields);
      // The id is _id, whose index MongoDB makes itself (unique) and refuses to be given options.
      if (fields.length === 1 && fields[0] === "id") continue;
      const keys: Record<string, 1 | -1> = {};
      for (const [f, dir] of Object.entries(spec.fields)) keys[mongoField(f)] = dir;
      // createIndex is a no-op when an index of that name and spec exists.
      await this.run(() => this.coll.createIndex(keys, { name: spec.name, ...(spec.unique ? { unique: true } : {}) }));
    }
  }

  async insertOne(doc: T): Promise<void> {
    await this.run(() => this.coll.insertOne(toMongo(doc)));
  }

  async findOne(filter: Filter): Promise<T | null> {
    return fromMongo<T>(await this.run(() => this.coll.findOne(toMongoFilter(filter))));
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    let cursor = this.coll.find(toMongoFilter(filter));
    const sort = Object.entries(options.sort ?? {});
    if (sort.length) {
      const keys: Record<string, 1 | -1> = {};
      for (const [f, dir] of sort) keys[mongoField(f)] = dir;
      // Ties are broken by id in the direction of the last key, as the port promises.
      if (!("_id" in keys)) keys._id = sort[sort.length - 1]![1];
      cursor = cursor.sort(keys as Sort);
    }
    if (options.skip) cursor = cursor.skip(options.skip);
    if (options.limit !== undefined) {
      if (options.limit === 0) return [];
      cursor = cursor.limit(options.limit);
    }
    return (await this.run(() => cursor.toArray())).map((d) => fromMongo<T>(d)!);
  }

  async count(filter: Filter): Promise<number> {
    return this.run(() => this.coll.countDocuments(toMongoFilter(filter)));
  }

  async group(filter: Filter, spec: GroupSpec): Promise<GroupRow[]> {
    const _id: Document = {};
    for (const [name, field] of Object.entries(spec.by)) _id[name] = `$${mongoField(field)}`;
    const head: Document[] = [{ $match: toMongoFilter(filter) }];
    if (spec.unwind) head.push({ $unwind: `$${mongoField(spec.unwind)}` });
    // One accumulator per pipeline: FerretDB v1 computes only the first accumulator of a $group
    // (the others come back 0), so the count and each sum are asked for separately and joined
    // by key. On MongoDB this costs a pass per accumulator over the same index range.
    const run = async (acc: Document) =>
      this.run(() => this.coll.aggregate([...head, { $group: { _id, v: acc } }]).toArray());
    const keyOf = (d: Document): Record<string, Scalar> =>
      Object.fromEntries(Object.keys(spec.by).map((name) => [name, (d._id?.[name] ?? null) as Scalar]));
    const rows = new Map<string, GroupRow>();
    for (const d of await run({ $sum: 1 })) {
      const key = keyOf(d);
      rows.set(JSON.stringify(key), { key, count: Number(d.v), sums: {} });
    }
    for (const [name, field] of Object.entries(spec.sum ?? {})) {
      for (const row of rows.values()) row.sums[name] = 0;
      for (const d of await run({ $sum: `$${mongoField(field)}` })) {
        const row = rows.get(JSON.stringify(keyOf(d)));
        if (row) row.sums[name] = Number(d.v);
      }
    }
    return [...rows.values()];
  }

  async updateOne(filter: Filter, set: Partial<T>, unset: string[] = []): Promise<T | null> {
    const $set: Document = {};
    const $unset: Document = {};
    for (const [k, v] of Object.entries(set)) {
      if (k === "id") continue;
      assertField(k);
      if (v === undefined) $unset[k] = "";
      else $set[k] = v;
    }
    for (const k of unset) {
      assertField(k);
      $unset[k] = "";
    }
    const update: Document = {};
    if (Object.keys($set).length) update.$set = $set;
    if (Object.keys($unset).length) update.$unset = $unset;
    if (!Object.keys(update).length) return this.findOne(filter);
    return this.run(async () => {
      if (await this.atomicUpdates()) {
        // One findAndModify: the match and the write are atomic on the server, so a `version`
        // condition in the filter makes racing writers lose cleanly (null) instead of overwriting.
        const doc = await this.coll.findOneAndUpdate(toMongoFilter(filter), update, {
          returnDocument: "after",
          includeResultMetadata: false,
        });
        return fromMongo<T>(doc);
      }
      return this.claimedUpdate(toMongoFilter(filter), update);
    });
  }

  /** Compare-and-set through a revision claim, for servers whose findAndModify is not atomic. */
  private async claimedUpdate(filter: Document, update: Document): Promise<T | null> {
    for (let attempt = 0; ; attempt++) {
      const current = await this.coll.findOne(filter);
      if (!current) return null;
      const rev = typeof current[REV] === "number" ? (current[REV] as number) : 0;
      const claim = `${String(current._id)}:${rev}`;
      try {
        await this.claims.insertOne({ _id: claim, at: new Date() });
      } catch (err) {
        if (!this.isDuplicate(err)) throw err;
        // Another writer holds this revision: wait for it to move on (or its lease to run out).
        await this.claims.deleteOne({ _id: claim, at: { $lt: new Date(Date.now() - CLAIM_LEASE_MS) } });
        await sleep(Math.min(5 + attempt * 5, 100) * (0.5 + Math.random()));
        continue;
      }
      try {
        // Holding the claim, nobody else can move the document on from `rev`: check that it is
        // still at `rev` and still matches, then write the next revision.
        const still = await this.coll.findOne({ $and: [filter, { _id: current._id }] });
        const stillRev = still && typeof still[REV] === "number" ? (still[REV] as number) : 0;
        if (!still || stillRev !== rev) continue;
        const next = { ...update, $set: { ...(update.$set as Document | undefined), [REV]: rev + 1 } };
        await this.coll.updateOne({ _id: current._id }, next);
        return fromMongo<T>(await this.coll.findOne({ _id: current._id }));
      } finally {
        await this.claims.deleteOne({ _id: claim });
      }
    }
  }

  async deleteOne(filter: Filter): Promise<boolean> {
    return (await this.run(() => this.coll.deleteOne(toMongoFilter(filter)))).deletedCount > 0;
  }

  async deleteMany(filter: Filter): Promise<number> {
    return (await this.run(() => this.coll.deleteMany(toMongoFilter(filter)))).deletedCount;
  }

  private isDuplicate(err: unknown): boolean {
    // FerretDB v1 reports a unique index hit by an update as InternalError with SQLite's text.
    return (
      err instanceof MongoServerError && (err.code === DUPLICATE_KEY || /UNIQUE constraint failed/.test(err.message))
    );
  }

  private mapError(err: unknown): unknown {
    if (this.isDuplicate(err)) return new DuplicateKeyError(this.name, (err as Error).message);
    if (isTransient(err)) {
      // A caller sees 503 with retry advice, never a 500; the service logs the driver's error.
      return Object.assign(
        errors.unavailable("The database could not be reached or did not answer in time; retry with backoff"),
        { cause: err },
      );
    }
    return err;
  }

  private async run<R>(op: () => Promise<R>): Promise<R> {
    try {
      return await op();
    } catch (err) {
      throw this.mapError(err);
    }
  }
}

/**
 * The server could not be reached, the connection broke, or the answer did not come in time (the
 * driver's network, server-selection and operation timeouts, a connection pool cleared or
 * waited on too long, a server shutting down) or the client's connections were closed (once no
 * server could be selected at its first use, or at the process's stop): the same operation may
 * well succeed moments later, or on another replica.
 */
function isTransient(err: unknown): boolean {
  if (
    err instanceof MongoNetworkError ||
    err instanceof MongoServerSelectionError ||
    err instanceof MongoServerClosedError ||
    err instanceof MongoTopologyClosedError ||
    err instanceof MongoOperationTimeoutError
  ) {
    return true;
  }
  if (err instanceof Error && err.name === "MongoWaitQueueTimeoutError") return true;
  // Shutting down (11600 InterruptedAtShutdown, 91 ShutdownInProgress) or no longer primary.
  return (
    err instanceof MongoServerError &&
    (err.hasErrorLabel("RetryableWriteError") || [91, 11600].includes(err.code as number))
  );
}

/** The database named in a connection string's path, if any. */
function databaseInUri(uri: string): string | undefined {
  const m = /^mongodb(?:\+srv)?:\/\/[^/]+\/([^?]+)/.exec(uri);
  return m ? decodeURIComponent(m[1]!) : undefined;
}

export class MongoStore implements Store {
  private readonly client: MongoClient;
  private readonly db: Db;
  private readonly collections = new Map<string, MongoStoreCollection<Doc>>();
  private atomic: Promise<boolean> | undefined;

  constructor(options: MongoStoreOptions) {
    this.client = new MongoClient(options.uri, {
      // Documents are plain JSON: JS `undefined` must not become BSON null.
      ignoreUndefined: true,
      serverSelectionTimeoutMS: 10_000,
      ...options.client,
    });
    this.db = this.client.db(options.database || databaseInUri(options.uri) || "verdict");
  }

  /** Connects and checks the server answers; call once at start-up. */
  async connect(): Promise<this> {
    await this.client.connect();
    await this.ping();
    await this.atomicUpdates();
    return this;
  }

  get databaseName(): string {
    return this.db.databaseName;
  }

  collection<T extends Doc>(name: string): Collection<T> {
    let c = this.collections.get(name);
    if (!c) {
      assertCollectionName(name);
      c = new MongoStoreCollection<Doc>(this.db.collection(name), this.db.collection(`${name}__claims`), name, () =>
        this.atomicUpdates(),
      );
      this.collections.set(name, c);
    }
    return c as unknown as Collection<T>;
  }

  /** Whether the server's findAndModify is atomic: MongoDB yes, FerretDB v1 no. */
  atomicUpdates(): Promise<boolean> {
    this.atomic ??= this.db
      .admin()
      .command({ buildInfo: 1 })
      .then(
        (info) => !("ferretdbVersion" in info),
        (err: unknown) => {
          this.atomic = undefined;
          throw err;
        },
      );
    return this.atomic;
  }

  async ping(): Promise<void> {
    await this.db.command({ ping: 1 });
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
