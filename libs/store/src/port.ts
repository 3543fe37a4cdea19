// The Store port: a small document-store API, deliberately a subset of MongoDB's (filters with
// $eq/$ne/$gt/$gte/$lt/$lte/$in/$nin/$exists, sort, limit, single-document atomic updates), so the
// embedded SQLite adapter and the MongoDB adapter behave the same. No multi-document
// transactions: whatever must change together lives in one document.

export type Scalar = string | number | boolean | null;

export interface Operators {
  $eq?: Scalar;
  $ne?: Scalar;
  $gt?: string | number;
  $gte?: string | number;
  $lt?: string | number;
  $lte?: string | number;
  $in?: Scalar[];
  /** Not any of these (a missing or null field matches unless null is listed). */
  $nin?: Scalar[];
  $exists?: boolean;
}

/** Field (dot paths allowed) -> value (equality) or operators. All conditions must hold. */
export type Filter = Record<string, Scalar | Operators>;

export interface FindOptions {
  /** Field -> 1 ascending, -1 descending. Ties are broken by id in the same direction as the last key. */
  sort?: Record<string, 1 | -1>;
  limit?: number;
  /**
   * Leaves out this many documents first (after sorting): offset paging where a protocol asks
   * for it (SCIM's startIndex). Prefer a cursor on an indexed key where the API may choose.
   */
  skip?: number;
}

export interface IndexSpec {
  name: string;
  fields: Record<string, 1 | -1>;
  unique?: boolean;
}

/**
 * Counts (and sums) of the documents matching a filter, per distinct value of some fields: the
 * `$match`/`$unwind`/`$group` subset both adapters support. A field missing from a document
 * groups as null.
 */
export interface GroupSpec {
  /** Output key -> field path. */
  by: Record<string, string>;
  /**
   * An array field: each of its elements is a row of its own (documents where it is empty or
   * missing add none). Paths under it (`violations.policy_id`) read the element.
   */
  unwind?: string;
  /** Output name -> numeric field to add up (a missing field adds 0). */
  sum?: Record<string, string>;
}

export interface GroupRow {
  key: Record<string, Scalar>;
  count: number;
  sums: Record<string, number>;
}

export interface Doc {
  id: string;
}

export interface Collection<T extends Doc> {
  /** Creates the indexes if they do not exist yet (idempotent; call at start-up). */
  ensureIndexes(specs: IndexSpec[]): Promise<void>;
  /** Throws DuplicateKeyError when the id or a unique index is taken. */
  insertOne(doc: T): Promise<void>;
  findOne(filter: Filter): Promise<T | null>;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  count(filter: Filter): Promise<number>;
  /** One row per distinct key among the matching documents (or unwound elements), in no order. */
  group(filter: Filter, spec: GroupSpec): Promise<GroupRow[]>;
  /**
   * Atomically sets (and unsets) fields of the first document matching the filter. Put a
   * `version` condition in the filter for optimistic concurrency. Returns the updated document,
   * or null when nothing matched.
   */
  updateOne(filter: Filter, set: Partial<T>, unset?: string[]): Promise<T | null>;
  deleteOne(filter: Filter): Promise<boolean>;
  deleteMany(filter: Filter): Promise<number>;
}

export interface Store {
  collection<T extends Doc>(name: string): Collection<T>;
  /** Answers when the store can serve reads and writes (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class DuplicateKeyError extends Error {
  override name = "DuplicateKeyError";
  constructor(
    readonly collection: string,
    detail: string,
  ) {
    super(`duplicate key in ${collection}: ${detail}`);
  }
}

const FIELD = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
const NAME = /^[a-z][a-z0-9_]*$/;

export function assertField(field: string): void {
  if (!FIELD.test(field)) throw new Error(`invalid field name '${field}'`);
}

export function assertCollectionName(name: string): void {
  if (!NAME.test(name)) throw new Error(`invalid collection name '${name}'`);
}

export function isOperators(v: Scalar | Operators): v is Operators {
  return typeof v === "object" && v !== null;
}
