// Sign-in throttles, through the Store port: failed attempts per account and per address, written
// by compare-and-set so that concurrent attempts (on any replica) are all counted.
import { DuplicateKeyError, type Collection, type Filter, type Store } from "@verdict/store";
import { IDENTITY_COLLECTIONS } from "./collections.js";

export interface ThrottleRecord {
  /** `account:<sha256 of the email>` or `address:<ip>` */
  id: string;
  failures: number;
  last_failure_at: string;
  locked_until: string | null;
  /** Up by one with every write: the condition of the next (a compare-and-set). Absent on old records. */
  rev?: number;
}

export class ThrottleRepo {
  private readonly throttles: Collection<ThrottleRecord>;

  constructor(store: Store) {
    this.throttles = store.collection<ThrottleRecord>(IDENTITY_COLLECTIONS.throttles);
  }

  find(id: string): Promise<ThrottleRecord | null> {
    return this.throttles.findOne({ id });
  }

  /**
   * Writes a throttle's next state if nobody wrote it since `prev` was read (a compare-and-set on
   * `rev`; `prev` null: only if it still does not exist); false when another request won.
   */
  async write(prev: ThrottleRecord | null, next: Omit<ThrottleRecord, "rev">): Promise<boolean> {
    const rev = (prev?.rev ?? 0) + 1;
    if (!prev) {
      try {
        await this.throttles.insertOne({ ...next, rev });
        return true;
      } catch (err) {
        if (err instanceof DuplicateKeyError) return false;
        throw err;
      }
    }
    const { id, ...fields } = next;
    const filter: Filter = { id, rev: prev.rev === undefined ? { $exists: false } : prev.rev };
    return (await this.throttles.updateOne(filter, { ...fields, rev })) !== null;
  }

  async clear(id: string): Promise<void> {
    await this.throttles.deleteOne({ id });
  }
}
