// The audit log's hash chain, as the identity service writes it and a client checks it: each
// organization's events are numbered (seq 1, 2, …) and each carries the hash of the one before
// (prev_hash) and its own hash, SHA-256 over the event's canonical form (JSON with the keys
// sorted at every level, no spaces, the `hash` field left out). A changed event no longer
// matches its hash; a removed, inserted or reordered one breaks the numbering or the links.
// This file is the format's one definition (docs/audit.md): identity hashes with it, and
// `verdict audit verify` checks an export with it.
import { createHash } from "node:crypto";

/** The prev_hash of an organization's first event. */
export const GENESIS_HASH = "0".repeat(64);

/** An audit event as the chain stores and the JSON Lines export carries it. */
export interface ChainedAuditEvent {
  seq: number;
  id: string;
  organization_id: string;
  type: string;
  actor: { type: string; id: string; ip: string };
  credential: { type: string; id: string } | null;
  request_id: string | null;
  target_type: string;
  target_id: string;
  occurred_at: string;
  data: Record<string, unknown>;
  prev_hash: string;
  hash: string;
}

/** JSON with object keys sorted at every level: one text for one value, whatever the key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    const obj = value as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(obj)
        .sort()
        .map((k) => [k, sortKeys(obj[k])]),
    );
  }
  return value;
}

/** What the hash covers: the event without `hash` (an absent credential or request id counts as null). */
export type AuditHashInput = Omit<ChainedAuditEvent, "hash" | "credential" | "request_id"> & {
  credential?: ChainedAuditEvent["credential"] | undefined;
  request_id?: string | null | undefined;
};

/** The hash of an event: SHA-256 (hex) of its canonical form without `hash`. */
export function auditEventHash(event: AuditHashInput): string {
  const form: Omit<ChainedAuditEvent, "hash"> = {
    seq: event.seq,
    id: event.id,
    organization_id: event.organization_id,
    type: event.type,
    actor: event.actor,
    credential: event.credential ?? null,
    request_id: event.request_id ?? null,
    target_type: event.target_type,
    target_id: event.target_id,
    occurred_at: event.occurred_at,
    data: event.data,
    prev_hash: event.prev_hash,
  };
  return createHash("sha256").update(canonicalJson(form)).digest("hex");
}

export type ChainProblem =
  | "changed" // the event's content no longer matches its hash
  | "unlinked" // its prev_hash is not the hash of the event before it
  | "missing" // numbers are skipped: events were removed before it
  | "out_of_order" // numbers go back or repeat: events were reordered or duplicated
  | "truncated"; // the chain ends before the head the caller knew of

export interface ChainVerdict {
  ok: boolean;
  /** How many events were checked. */
  checked: number;
  /** The last event's number and hash: keep it, and pass it as `knownHead` next time. */
  head: { seq: number; hash: string } | null;
  /** The first event found wrong, and why. */
  failure?: { seq: number; id: string; problem: ChainProblem; message: string };
}

export interface VerifyOptions {
  /**
   * Where the events start: by default the organization's first event (seq 1, prev_hash of
   * zeros). Events older than a retention period are deleted; the export then starts later and
   * names where (the first event's seq and prev_hash are taken as given).
   */
  start?: { seq: number; prev_hash: string };
  /** A head seen earlier: the chain must still contain it unchanged (detects a cut-off end). */
  knownHead?: { seq: number; hash: string };
}

/** Checks a run of one organization's events, in the order given (an export is in seq order). */
export function verifyAuditChain(events: readonly ChainedAuditEvent[], opts: VerifyOptions = {}): ChainVerdict {
  let expectedSeq = opts.start?.seq ?? 1;
  let expectedPrev = opts.start?.prev_hash ?? GENESIS_HASH;
  // Before the first event, the chain's end is where it starts: the checkpoint, if any.
  let head: ChainVerdict["head"] =
    opts.start && opts.start.seq > 1 ? { seq: opts.start.seq - 1, hash: opts.start.prev_hash } : null;
  let checked = 0;
  const fail = (e: ChainedAuditEvent, problem: ChainProblem, message: string): ChainVerdict => ({
    ok: false,
    checked,
    head,
    failure: { seq: e.seq, id: e.id, problem, message },
  });
  if (head && opts.knownHead?.seq === head.seq && opts.knownHead.hash !== head.hash)
    return {
      ok: false,
      checked,
      head,
      failure: {
        seq: head.seq,
        id: events[0]?.id ?? "",
        problem: "changed",
        message: `the checkpoint at event ${head.seq} is not the event seen before (its hash differs)`,
      },
    };
  for (const e of events) {
    if (e.seq > expectedSeq)
      return fail(e, "missing", `event ${e.seq} (${e.id}) follows ${expectedSeq - 1}: ${e.seq - expectedSeq} removed`);
    if (e.seq < expectedSeq)
      return fail(e, "out_of_order", `event ${e.seq} (${e.id}) comes after ${expectedSeq - 1}: reordered or repeated`);
    if (auditEventHash(e) !== e.hash)
      return fail(e, "changed", `event ${e.seq} (${e.id}) does not match its hash: it was changed`);
    if (e.prev_hash !== expectedPrev)
      return fail(e, "unlinked", `event ${e.seq} (${e.id}) does not link to the event before it`);
    if (opts.knownHead?.seq === e.seq && opts.knownHead.hash !== e.hash)
      return fail(e, "changed", `event ${e.seq} (${e.id}) is not the one seen before (its hash differs)`);
    checked++;
    head = { seq: e.seq, hash: e.hash };
    expectedSeq = e.seq + 1;
    expectedPrev = e.hash;
  }
  if (opts.knownHead && (head?.seq ?? 0) < opts.knownHead.seq) {
    const last = events[events.length - 1];
    return {
      ok: false,
      checked,
      head,
      failure: {
        seq: opts.knownHead.seq,
        id: last?.id ?? "",
        problem: "truncated",
        message: `the chain ends at ${head?.seq ?? 0}, before event ${opts.knownHead.seq} seen earlier: events were removed from its end`,
      },
    };
  }
  return { ok: true, checked, head };
}

/**
 * The first line of an export when the retention sweep deleted older events: the seq and hash of
 * the last deleted event, which the first kept event links to (docs/audit.md).
 */
export interface AuditExportCheckpoint {
  seq: number;
  hash: string;
  swept_at: string;
}

/** A JSON Lines export (`GET /v1/audit-events/export`): its checkpoint line, if any, and its events in file order. */
export function readAuditExport(text: string): {
  checkpoint: AuditExportCheckpoint | null;
  events: ChainedAuditEvent[];
} {
  let checkpoint: AuditExportCheckpoint | null = null;
  const events: ChainedAuditEvent[] = [];
  text.split("\n").forEach((line, i) => {
    if (!line.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new Error(`line ${i + 1} of the audit export is not JSON`);
    }
    const cp = (value as { checkpoint?: AuditExportCheckpoint }).checkpoint;
    if (i === 0 && cp) checkpoint = cp;
    else events.push(value as ChainedAuditEvent);
  });
  return { checkpoint, events };
}

/** The events of a JSON Lines export, in file order (without its checkpoint line). */
export function parseAuditExport(text: string): ChainedAuditEvent[] {
  return readAuditExport(text).events;
}

/** Checks a JSON Lines export: from its checkpoint when older events were deleted, else from seq 1. */
export function verifyAuditExport(
  text: string,
  opts: Pick<VerifyOptions, "knownHead"> = {},
): ChainVerdict & { checkpoint: AuditExportCheckpoint | null } {
  const { checkpoint, events } = readAuditExport(text);
  const verdict = verifyAuditChain(events, {
    ...opts,
    ...(checkpoint ? { start: { seq: checkpoint.seq + 1, prev_hash: checkpoint.hash } } : {}),
  });
  return { ...verdict, checkpoint };
}
