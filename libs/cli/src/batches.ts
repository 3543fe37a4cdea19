// How `verdict evaluate` splits a change the API cannot take in one request, and how it puts the
// answers back together. Pure: no I/O, no clock.
//
// The API takes at most 1,000 files and VERDICT_MAX_BODY_BYTES (32 MiB by default) per request,
// and queues a request of 200 files or 4 MiB of content (its default thresholds) for a worker:
// the caller then polls, and the server stores every file first. So batches stay under those
// thresholds ("sync" batches, answered inside the POST) while the rate limit allows; when the
// budget left is smaller than the sync batches still to send, the rest goes in "large" batches
// (up to 1,000 files, 24 MiB) that need fewer requests. Every body stays under 30 MiB of JSON.
import { isUtf8 } from "node:buffer";
import type { Evaluation, FileInput } from "@verdict/sdk";

const MiB = 1024 * 1024;

export interface BatchLimit {
  files: number;
  /** Bytes of the files' content (what the API's queueing threshold counts). */
  bytes: number;
  /** UTF-8 bytes of the files' JSON entries: the request body stays under VERDICT_MAX_BODY_BYTES' default. */
  bodyBytes: number;
}

const BODY_BYTES = 30 * MiB;
export const SYNC_BATCH: BatchLimit = { files: 199, bytes: 4 * MiB - 1, bodyBytes: BODY_BYTES };
export const LARGE_BATCH: BatchLimit = { files: 1000, bytes: 24 * MiB, bodyBytes: BODY_BYTES };

/** A file to send, by the size of its content on disk. */
export interface Sized {
  bytes: number;
}

/**
 * A file encoded once as its JSON entry of the request's `files` array: the entry's UTF-8 bytes
 * in chunks (the head with the path, the content's JSON string, the tail), so a batch's body is
 * the list of its entries' chunks, written to the socket as they are (never joined into one
 * string or buffer). `bytes` is their total length.
 */
export interface EncodedFile {
  path: string;
  chunks: Buffer[];
  bytes: number;
}

/**
 * The JSON string literal of valid UTF-8 text, as UTF-8 bytes: JSON.stringify of the text's
 * latin1 reading escapes exactly the quotes, backslashes and control characters and leaves every
 * byte from 0x80 up as it is, so it is byte for byte what JSON.stringify of the decoded text
 * would give, without decoding it and encoding it back (a third of the CPU).
 */
export function jsonStringOfUtf8(text: Buffer): Buffer {
  return Buffer.from(JSON.stringify(text.toString("latin1")), "latin1");
}

/** The JSON entry of a file; content that is not valid UTF-8 is sent as the API would read it (U+FFFD). */
export function encodeFile(f: { path: string; status: FileInput["status"]; content: Buffer }): EncodedFile {
  const content = isUtf8(f.content)
    ? jsonStringOfUtf8(f.content)
    : Buffer.from(JSON.stringify(f.content.toString("utf8")), "utf8");
  const head = Buffer.from(`{"path":${JSON.stringify(f.path)},"content":`, "utf8");
  const tail = Buffer.from(`,"status":${JSON.stringify(f.status ?? "modified")}}`, "utf8");
  return { path: f.path, chunks: [head, content, tail], bytes: head.length + content.length + tail.length };
}

/**
 * The batch starting at `start`: at least one file, then as many as the limit allows. `read`
 * loads and encodes a file, or answers null for one that cannot be sent (binary, too large),
 * which still counts as taken. Files are read only here, one batch at a time, so reading
 * overlaps with the batches already on their way.
 */
export function takeBatch<F extends Sized>(
  files: F[],
  start: number,
  limit: BatchLimit,
  read: (f: F) => EncodedFile | null,
): { end: number; entries: EncodedFile[] } {
  const entries: EncodedFile[] = [];
  let end = start;
  let bytes = 0;
  let body = 0;
  while (end < files.length && entries.length < limit.files) {
    const f = files[end]!;
    if (entries.length > 0 && bytes + f.bytes > limit.bytes) break;
    const e = read(f);
    if (e && entries.length > 0 && body + e.bytes > limit.bodyBytes) break;
    end++;
    if (!e) continue;
    entries.push(e);
    bytes += f.bytes;
    body += e.bytes;
  }
  return { end, entries };
}

/** About how many batches of `limit` the rest of a change needs (by file count and by bytes). */
export function batchesFor(files: number, bytes: number, limit: BatchLimit): number {
  if (files === 0) return 0;
  return Math.max(Math.ceil(files / limit.files), Math.ceil(bytes / limit.bytes));
}

/**
 * The body of one batch's POST /v1/evaluations, as the chunks to write: the envelope's fields,
 * then the pre-encoded entries' own chunks (no copy of the files' bytes).
 */
export function batchChunks(
  envelope: { repository: string; ref: string; base_ref?: string; policies?: string[] },
  files: EncodedFile[],
): Buffer[] {
  const head = JSON.stringify(envelope);
  const chunks: Buffer[] = [Buffer.from(`${head.slice(0, -1)}${head.length > 2 ? "," : ""}"files":[`, "utf8")];
  const comma = Buffer.from(",");
  files.forEach((f, i) => {
    if (i > 0) chunks.push(comma);
    chunks.push(...f.chunks);
  });
  chunks.push(Buffer.from("]}"));
  return chunks;
}

/** The body of one batch's POST /v1/evaluations as one buffer (batchChunks joined). */
export function batchBody(
  envelope: { repository: string; ref: string; base_ref?: string; policies?: string[] },
  files: EncodedFile[],
): Buffer {
  return Buffer.concat(batchChunks(envelope, files));
}

/** Several evaluations of one change read as one: what the CLI prints. */
export type MergedEvaluation = Omit<Evaluation, "id"> & {
  /** The evaluation's id when there was one batch; null when there were several. */
  id: string | null;
  /** Every evaluation the change was sent as, in the order of its files. */
  evaluations: string[];
};

type Violation = Evaluation["violations"][number];
type Located = Pick<Violation, "file" | "line" | "policy_id" | "rule_id"> & { column?: number };

const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
const byLocation = (a: Located, b: Located) =>
  cmp(a.file, b.file) ||
  cmp(a.line, b.line) ||
  cmp(a.column ?? 0, b.column ?? 0) ||
  cmp(a.policy_id, b.policy_id) ||
  cmp(a.rule_id, b.rule_id);

/**
 * One result from completed evaluations of parts of a change: counts summed, findings and
 * suppressions of every part sorted by file, line and column, passed only when every part passed.
 */
export function mergeEvaluations(parts: Evaluation[]): MergedEvaluation {
  const first = parts[0];
  if (!first) throw new Error("mergeEvaluations needs at least one evaluation");
  const summary = { total_files: 0, total_violations: 0, errors: 0, warnings: 0, suppressed: 0, skipped_files: 0 };
  for (const p of parts) for (const k of Object.keys(summary) as (keyof typeof summary)[]) summary[k] += p.summary[k];
  const failed = parts.find((p) => p.status === "failed");
  const completedAt = parts.map((p) => p.completed_at).filter((t): t is string => t !== null);
  return {
    id: parts.length === 1 ? first.id : null,
    evaluations: parts.map((p) => p.id),
    status: failed ? "failed" : parts.every((p) => p.status === "completed") ? "completed" : "pending",
    repository: first.repository,
    ref: first.ref,
    base_ref: first.base_ref,
    created_at: parts.map((p) => p.created_at).sort()[0]!,
    completed_at: completedAt.length === parts.length ? completedAt.sort().at(-1)! : null,
    passed: parts.every((p) => p.passed === true) ? true : parts.some((p) => p.passed === false) ? false : null,
    summary,
    violations: parts.flatMap((p) => p.violations).sort(byLocation),
    suppressions: parts.flatMap((p) => p.suppressions).sort(byLocation),
    ...(failed?.failure_reason ? { failure_reason: failed.failure_reason } : {}),
  };
}
