// Embedded Store adapter: one SQLite file (WAL), one table per collection holding JSON
// documents, json_extract expression indexes for the query shapes. better-sqlite3 is
// synchronous, so each operation (including read-modify-write updates) is atomic in-process.
import Database from "better-sqlite3";
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from "node:fs";
import { dirname } from "node:path";
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

type SqlValue = string | number | null;

function sqlValue(v: Scalar): SqlValue {
  if (typeof v === "boolean") return v ? 1 : 0;
  return v;
}

function path(field: string): string {
  assertField(field);
  return `json_extract(doc, '$.${field}')`;
}

function compileFilter(filter: Filter): { where: string; params: SqlValue[] } {
  const parts: string[] = [];
  const params: SqlValue[] = [];
  for (const [field, cond] of Object.entries(filter)) {
    const col = field === "id" ? "id" : path(field);
    if (!isOperators(cond)) {
      if (cond === null) parts.push(`${col} IS NULL`);
      else {
        parts.push(`${col} = ?`);
        params.push(sqlValue(cond));
      }
      continue;
    }
    for (const [op, v] of Object.entries(cond)) {
      switch (op) {
        case "$eq":
          if (v === null) parts.push(`${col} IS NULL`);
          else {
            parts.push(`${col} = ?`);
            params.push(sqlValue(v as Scalar));
          }
          break;
        case "$ne":
          if (v === null) parts.push(`${col} IS NOT NULL`);
          else {
            parts.push(`(${col} IS NULL OR ${col} <> ?)`);
            params.push(sqlValue(v as Scalar));
          }
          break;
        case "$gt":
        case "$gte":
        case "$lt":
        case "$lte": {
          const sym = { $gt: ">", $gte: ">=", $lt: "<", $lte: "<=" }[op];
          parts.push(`${col} ${sym} ?`);
          params.push(sqlValue(v as Scalar));
          break;
        }
        case "$in": {
          // SQL's IN never matches NULL; the port's (Mongo's) $in matches null and missing fields.
          const list = (v as Scalar[]).filter((x) => x !== null);
          const withNull = list.length < (v as Scalar[]).length;
          const inList = list.length ? `${col} IN (${list.map(() => "?").join(",")})` : "0";
          params.push(...list.map(sqlValue));
          parts.push(withNull ? `(${inList} OR ${col} IS NULL)` : inList);
          break;
        }
        case "$nin": {
          const list = (v as Scalar[]).filter((x) => x !== null);
          const withNull = list.length < (v as Scalar[]).length;
          const notIn = list.length ? `${col} NOT IN (${list.map(() => "?").join(",")})` : "1";
          params.push(...list.map(sqlValue));
          parts.push(withNull ? `(${col} IS NOT NULL AND ${notIn})` : `(${col} IS NULL OR ${notIn})`);
          break;
        }
        case "$exists":
          parts.push(v ? `${col} IS NOT NULL` : `${col} IS NULL`);
          break;
        default:
          throw new Error(`unsupported operator ${op}`);
      }
    }
  }
  return { where: parts.length ? parts.join(" AND ") : "1", params };
}

function setPath(doc: Record<string, unknown>, field: string, value: unknown): void {
  const keys = field.split(".");
  let cur: Record<string, unknown> = doc;
  for (const k of keys.slice(0, -1)) {
    if (typeof cur[k] !== "object" || cur[k] === null) cur[k] = {};
    cur = cur[k] as Record<string, unknown>;
  }
  const last = keys[keys.length - 1]!;
  if (value === undefined) delete cur[last];
  else cur[last] = value;
}

/** Prepared statements kept per collection (filters of one shape share one SQL text). */
const STATEMENT_CACHE_SIZE = 200;

class SqliteCollection<T extends Doc> implements Collection<T> {
  private readonly table: string;
  private readonly statements = new Map<string, Database.Statement>();

  constructor(
    private readonly db: Database.Database,
    private readonly name: string,
    /** Called after a delete removed documents: their bytes must leave the WAL soon. */
    private readonly deleted: () => void = () => {},
  ) {
    assertCollectionName(name);
    this.table = `c_${name}`;
    db.exec(`CREATE TABLE IF NOT EXISTS ${this.table} (id TEXT PRIMARY KEY, doc TEXT NOT NULL) WITHOUT ROWID`);
  }

  /** Compiling SQL costs more than running these small statements: keep the compiled ones. */
  private prepare(sql: string): Database.Statement {
    let stmt = this.statements.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      if (this.statements.size >= STATEMENT_CACHE_SIZE) this.statements.delete(this.statements.keys().next().value!);
      this.statements.set(sql, stmt);
    }
    return stmt;
  }

  async ensureIndexes(specs: IndexSpec[]): Promise<void> {
    for (const spec of specs) {
      assertCollectionName(spec.name);
      const cols = Object.entries(spec.fields).map(
        ([f, dir]) => `${f === "id" ? "id" : path(f)} ${dir === -1 ? "DESC" : "ASC"}`,
      );
      this.db.exec(
        `CREATE ${spec.unique ? "UNIQUE " : ""}INDEX IF NOT EXISTS ${this.table}__${spec.name} ON ${this.table} (${cols.join(", ")})`,
      );
    }
  }

  async insertOne(doc: T): Promise<void> {
    try {
      this.prepare(`INSERT INTO ${this.table} (id, doc) VALUES (?, ?)`).run(doc.id, JSON.stringify(doc));
    } catch (err) {
      throw this.mapError(err);
    }
  }

  async findOne(filter: Filter): Promise<T | null> {
    const { where, params } = compileFilter(filter);
    const row = this.prepare(`SELECT doc FROM ${this.table} WHERE ${where} LIMIT 1`).get(...params) as
      { doc: string } | undefined;
    return row ? (JSON.parse(row.doc) as T) : null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    const { where, params } = compileFilter(filter);
    let sql = `SELECT doc FROM ${this.table} WHERE ${where}`;
    const sort = Object.entries(options.sort ?? {});
    if (sort.length) {
      const lastDir = sort[sort.length - 1]![1];
      const keys = sort.map(([f, d]) => `${f === "id" ? "id" : path(f)} ${d === -1 ? "DESC" : "ASC"}`);
      if (!sort.some(([f]) => f === "id")) keys.push(`id ${lastDir === -1 ? "DESC" : "ASC"}`);
      sql += ` ORDER BY ${keys.join(", ")}`;
    }
    // SQLite takes OFFSET only after a LIMIT (-1: none).
    if (options.limit !== undefined || options.skip) {
      sql += " LIMIT ?";
      params.push(options.limit ?? -1);
    }
    if (options.skip) {
      sql += " OFFSET ?";
      params.push(options.skip);
    }
    const rows = this.prepare(sql).all(...params) as { doc: string }[];
    return rows.map((r) => JSON.parse(r.doc) as T);
  }

  async count(filter: Filter): Promise<number> {
    const { where, params } = compileFilter(filter);
    const row = this.prepare(`SELECT COUNT(*) AS n FROM ${this.table} WHERE ${where}`).get(...params) as { n: number };
    return row.n;
  }

  async group(filter: Filter, spec: GroupSpec): Promise<GroupRow[]> {
    const { where, params } = compileFilter(filter);
    // Paths under the unwound array read its element (json_each's value), others the document.
    const source = (field: string): [string, string] => {
      assertField(field);
      if (spec.unwind && field.startsWith(`${spec.unwind}.`))
        return ["u.value", `$.${field.slice(spec.unwind.length + 1)}`];
      return ["doc", `$.${field}`];
    };
    const keys = Object.entries(spec.by);
    const sums = Object.entries(spec.sum ?? {});
    const cols: string[] = [];
    keys.forEach(([, field], i) => {
      const [from, at] = source(field);
      // json_type tells a stored true/false apart from the 1/0 json_extract gives for them.
      cols.push(`json_extract(${from}, '${at}') AS k${i}`, `json_type(${from}, '${at}') AS t${i}`);
    });
    sums.forEach(([, field], i) => {
      const [from, at] = source(field);
      cols.push(`COALESCE(SUM(json_extract(${from}, '${at}')), 0) AS s${i}`);
    });
    cols.push("COUNT(*) AS n");
    let from = this.table;
    if (spec.unwind) {
      assertField(spec.unwind);
      from += `, json_each(${this.table}.doc, '$.${spec.unwind}') AS u`;
    }
    const groupBy = keys.length ? ` GROUP BY ${keys.map((_, i) => `k${i}, t${i}`).join(", ")}` : "";
    const rows = this.prepare(`SELECT ${cols.join(", ")} FROM ${from} WHERE ${where}${groupBy}`).all(
      ...params,
    ) as Record<string, SqlValue>[];
    return rows
      .filter((r) => keys.length > 0 || Number(r.n) > 0)
      .map((r) => ({
        key: Object.fromEntries(
          keys.map(([name], i) => {
            const t = r[`t${i}`];
            const v = t === "true" ? true : t === "false" ? false : (r[`k${i}`] ?? null);
            return [name, v as Scalar];
          }),
        ),
        count: Number(r.n),
        sums: Object.fromEntries(sums.map(([name], i) => [name, Number(r[`s${i}`])])),
      }));
  }

  async updateOne(filter: Filter, set: Partial<T>, unset: string[] = []): Promise<T | null> {
    const { where, params } = compileFilter(filter);
    const tx = this.db.transaction((): T | null => {
      const row = this.prepare(`SELECT id, doc FROM ${this.table} WHERE ${where} LIMIT 1`).get(...params) as
        { id: string; doc: string } | undefined;
      if (!row) return null;
      const doc = JSON.parse(row.doc) as Record<string, unknown>;
      for (const [k, v] of Object.entries(set)) {
        if (k === "id") continue;
        assertField(k);
        setPath(doc, k, v);
      }
      for (const k of unset) {
        assertField(k);
        setPath(doc, k, undefined);
      }
      this.prepare(`UPDATE ${this.table} SET doc = ? WHERE id = ?`).run(JSON.stringify(doc), row.id);
      return doc as unknown as T;
    });
    try {
      return tx();
    } catch (err) {
      throw this.mapError(err);
    }
  }

  async deleteOne(filter: Filter): Promise<boolean> {
    const { where, params } = compileFilter(filter);
    const res = this.prepare(
      `DELETE FROM ${this.table} WHERE id IN (SELECT id FROM ${this.table} WHERE ${where} LIMIT 1)`,
    ).run(...params);
    if (res.changes > 0) this.deleted();
    return res.changes > 0;
  }

  async deleteMany(filter: Filter): Promise<number> {
    const { where, params } = compileFilter(filter);
    const changes = this.prepare(`DELETE FROM ${this.table} WHERE ${where}`).run(...params).changes;
    if (changes > 0) this.deleted();
    return changes;
  }

  private mapError(err: unknown): unknown {
    const code = (err as { code?: string }).code;
    if (code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "SQLITE_CONSTRAINT_UNIQUE") {
      return new DuplicateKeyError(this.name, (err as Error).message);
    }
    return err;
  }
}

/** Another process holds the store's file (SqliteStore with `exclusive`). */
export class StoreLockedError extends Error {
  override name = "StoreLockedError";
  constructor(readonly file: string) {
    super(`${file} is in use by another process`);
  }
}

export interface SqliteStoreOptions {
  /**
   * Hold an exclusive lock on the file for the store's lifetime, so a second process opening it
   * fails at once with StoreLockedError (the all-in-one process owns its data directory; the
   * lock is the operating system's, released even when the process is killed).
   */
  exclusive?: boolean;
  /** How soon after a delete the WAL is checkpointed and truncated (ms). */
  checkpointDelayMs?: number;
}

/** Owner-only: the store holds organizations' data, key hashes and queued file contents. */
const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

export class SqliteStore implements Store {
  private readonly db: Database.Database;
  private readonly collections = new Map<string, SqliteCollection<Doc>>();
  private checkpointTimer: NodeJS.Timeout | undefined;
  private readonly checkpointDelayMs: number;

  /** `file` is a path, or ":memory:" for a throw-away store. */
  constructor(
    private readonly file: string,
    options: SqliteStoreOptions = {},
  ) {
    this.checkpointDelayMs = options.checkpointDelayMs ?? 100;
    if (file !== ":memory:") {
      const dir = dirname(file);
      mkdirSync(dir, { recursive: true, mode: DIR_MODE });
      // An existing directory is tightened too, unless it is a shared one (sticky, like /tmp)
      // or someone else's.
      const st = statSync(dir);
      if (!(st.mode & 0o1000) && st.uid === process.getuid?.()) chmodSync(dir, DIR_MODE);
      // SQLite creates its -wal and -shm files with the database file's mode: create it 0600.
      closeSync(openSync(file, "a", FILE_MODE));
      for (const f of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(f)) chmodSync(f, FILE_MODE);
    }
    this.db = new Database(file);
    try {
      if (options.exclusive) {
        // Taken before anything else touches the file, without waiting: a busy file means
        // another process owns it.
        this.db.pragma("busy_timeout = 0");
        this.db.pragma("locking_mode = EXCLUSIVE");
      }
      this.db.pragma("journal_mode = WAL");
      if (options.exclusive) this.db.exec("BEGIN EXCLUSIVE; COMMIT");
    } catch (err) {
      this.db.close();
      if ((err as { code?: string }).code?.startsWith("SQLITE_BUSY")) throw new StoreLockedError(file);
      throw err;
    }
    this.db.pragma("synchronous = NORMAL");
    this.db.pragma("busy_timeout = 5000");
    // Deleted documents (queued file contents among them) are overwritten with zeros in the
    // database file rather than left in free pages.
    this.db.pragma("secure_delete = ON");
  }

  collection<T extends Doc>(name: string): Collection<T> {
    let c = this.collections.get(name);
    if (!c) {
      c = new SqliteCollection<Doc>(this.db, name, () => this.scheduleCheckpoint());
      this.collections.set(name, c);
    }
    return c as unknown as Collection<T>;
  }

  /**
   * Deleted documents stay readable in the WAL until it is checkpointed: shortly after deletes
   * (coalesced), the WAL is copied into the database file (where secure_delete zeroed them)
   * and truncated to nothing.
   */
  private scheduleCheckpoint(): void {
    if (this.checkpointTimer || this.file === ":memory:") return;
    this.checkpointTimer = setTimeout(() => {
      this.checkpointTimer = undefined;
      void this.checkpoint();
    }, this.checkpointDelayMs);
    this.checkpointTimer.unref();
  }

  /** Copies the WAL into the database file and truncates it. */
  async checkpoint(): Promise<void> {
    if (this.db.open) this.db.pragma("wal_checkpoint(TRUNCATE)");
  }

  async ping(): Promise<void> {
    this.db.prepare("SELECT 1").get();
  }

  async close(): Promise<void> {
    clearTimeout(this.checkpointTimer);
    this.checkpointTimer = undefined;
    if (!this.db.open) return;
    await this.checkpoint();
    this.db.close();
  }
}
