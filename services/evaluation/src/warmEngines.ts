// Engines a new scan thread compiles before it takes jobs. A scan thread that overruns its
// deadline (one organization's costly patterns) is terminated and replaced, and its compiled
// engines go with it: without this, the next organization's scan on the replacement thread would
// compile its policies again first, paying for the other organization's deadline.
//
// The request thread records the policy sets of recent successful scans in a SharedArrayBuffer
// that every scan thread of the pool receives as workerData (shared memory, so a replacement
// started later sees what was recorded since). A starting thread compiles them before it reports
// ready; piscina gives jobs to ready threads only, and the pool keeps a spare thread, so jobs run
// on the other threads meanwhile. Scans that failed (past their deadline) are not recorded: a
// thread should not start by compiling the patterns that got its predecessor terminated.
//
// The buffer holds a sequence number (odd while being written), the length, and the JSON of the
// entries; a reader copies it out and retries if the sequence moved.
import type { PolicyToRun } from "./domain/engine.js";

export interface WarmEntry {
  organizationId: string;
  version: string;
  policies: readonly PolicyToRun[];
}

const HEADER_BYTES = 8;
/** Room for the recorded policy sets; entries that do not fit (the oldest first) are left out. */
export const WARM_BUFFER_BYTES = 4 * 1024 * 1024;
/** Policy sets recorded; fewer than a scan thread's engine cache holds (16). */
export const WARM_ENTRIES = 8;

export class WarmEngines {
  readonly buffer: SharedArrayBuffer;
  private readonly header: Int32Array;
  private readonly bytes: Uint8Array;
  /** Encoded entries by version, least recently recorded first, with the organization that recorded each last. */
  private readonly entries = new Map<string, { organizationId: string; encoded: Buffer }>();

  constructor(
    bytes = WARM_BUFFER_BYTES,
    private readonly capacity = WARM_ENTRIES,
  ) {
    this.buffer = new SharedArrayBuffer(bytes);
    this.header = new Int32Array(this.buffer, 0, 2);
    this.bytes = new Uint8Array(this.buffer, HEADER_BYTES);
  }

  /** Records a policy set that scanned successfully; rewrites the buffer only when the set is new. */
  record(organizationId: string, version: string, policies: readonly PolicyToRun[]): void {
    // One entry per version: organizations whose policies resolve alike share its engine.
    const key = version;
    const known = this.entries.get(key);
    if (known) {
      // Most recent last, so the oldest is the one left out.
      this.entries.delete(key);
      this.entries.set(key, { ...known, organizationId });
      return;
    }
    const encoded = Buffer.from(JSON.stringify({ organizationId, version, policies } satisfies WarmEntry));
    this.entries.set(key, { organizationId, encoded });
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    this.write();
  }

  /** Forgets an organization's policy sets (its policies changed or it was deleted). */
  forget(organizationId: string): void {
    let changed = false;
    for (const [key, entry] of [...this.entries])
      if (entry.organizationId === organizationId) {
        this.entries.delete(key);
        changed = true;
      }
    if (changed) this.write();
  }

  private write(): void {
    // The most recent entries that fit.
    const parts: Buffer[] = [];
    let size = 2;
    for (const { encoded: part } of [...this.entries.values()].reverse()) {
      if (size + part.length + 1 > this.bytes.length) break;
      parts.unshift(part);
      size += part.length + 1;
    }
    Atomics.add(this.header, 0, 1);
    let at = 0;
    this.bytes[at++] = 0x5b;
    parts.forEach((part, i) => {
      if (i > 0) this.bytes[at++] = 0x2c;
      this.bytes.set(part, at);
      at += part.length;
    });
    this.bytes[at++] = 0x5d;
    Atomics.store(this.header, 1, at);
    Atomics.add(this.header, 0, 1);
  }
}

/** The recorded entries, as a scan thread reads them when it starts (none if unreadable). */
export function readWarmEntries(buffer: SharedArrayBuffer | undefined): WarmEntry[] {
  if (!(buffer instanceof SharedArrayBuffer)) return [];
  const header = new Int32Array(buffer, 0, 2);
  for (let tries = 0; tries < 100; tries++) {
    const seq = Atomics.load(header, 0);
    if (seq % 2 === 1) continue;
    const length = Atomics.load(header, 1);
    const copy = new Uint8Array(buffer, HEADER_BYTES, length).slice();
    if (Atomics.load(header, 0) !== seq) continue;
    if (length === 0) return [];
    try {
      return JSON.parse(Buffer.from(copy.buffer).toString("utf8")) as WarmEntry[];
    } catch {
      return [];
    }
  }
  return [];
}
