// An organization's place in the queue of asynchronous evaluations, as pure rules: which
// reservations of its ledger still count, what its queue holds, and whether one more fits.
// The repository (repo.ts: reserveQueueRoom) reads the ledger and the evaluations and writes the
// ledger back with a compare-and-set on its version; see docs/architecture.md.

/** A place in an organization's queue, taken before the evaluation's files are written. */
export interface QueueReservation {
  evaluation_id: string;
  /** Bytes of content the evaluation holds. */
  bytes: number;
  /** When it was taken (ISO 8601): an evaluation never stored past the grace period stops counting. */
  reserved_at: string;
}

export interface QueueCaps {
  /** Queued evaluations the organization may have at once. */
  maxCount: number;
  /** Bytes of content they may hold (one evaluation is always let in when none is queued). */
  maxBytes: number;
}

export interface QueueUse {
  count: number;
  bytes: number;
}

/**
 * How long a reservation counts without its evaluation stored: longer than writing a change of
 * the largest body takes (the files, then the evaluation), short enough that a crash between the
 * two frees the organization's place within minutes. A reservation whose evaluation was stored
 * counts while the evaluation is pending, whatever its age.
 */
export const RESERVATION_GRACE_MS = 5 * 60_000;

/** What the store says of the evaluations a ledger names. */
export interface QueueFacts {
  /** The organization's pending evaluations: id -> the bytes they hold. */
  pending: ReadonlyMap<string, number>;
  /** Ids of reserved evaluations that are stored and no longer pending (finished, failed, deleted). */
  left: ReadonlySet<string>;
}

/**
 * The reservations that still count: not those whose evaluation left the queue (its release was
 * lost to a crash), nor those never stored within the grace period (a crash between reserving and
 * storing). Reservations only ever leave: an evaluation that left the queue never comes back.
 */
export function liveReservations(
  reservations: readonly QueueReservation[],
  facts: QueueFacts,
  now: Date,
  graceMs = RESERVATION_GRACE_MS,
): QueueReservation[] {
  const oldest = now.getTime() - graceMs;
  return reservations.filter(
    (r) =>
      !facts.left.has(r.evaluation_id) && (facts.pending.has(r.evaluation_id) || Date.parse(r.reserved_at) > oldest),
  );
}

/**
 * What the organization's queue holds: its live reservations, and pending evaluations that hold
 * none (queued before the ledger existed, or stored after their reservation's grace ran out), so
 * the count errs on the side of the cap.
 */
export function queueUse(live: readonly QueueReservation[], pending: ReadonlyMap<string, number>): QueueUse {
  const reserved = new Set(live.map((r) => r.evaluation_id));
  let count = live.length;
  let bytes = live.reduce((n, r) => n + r.bytes, 0);
  for (const [id, b] of pending) {
    if (reserved.has(id)) continue;
    count++;
    bytes += b;
  }
  return { count, bytes };
}

/** Whether one more evaluation of `bytes` fits: by count, and by bytes unless nothing is queued. */
export function fitsQueue(use: QueueUse, bytes: number, caps: QueueCaps): boolean {
  return use.count + 1 <= caps.maxCount && (use.bytes === 0 || use.bytes + bytes <= caps.maxBytes);
}
