// `scan history --offline`'s engine threads, started from the CLI's thread without loading the
// engine or the policy library there: each thread resolves the policies (the pulled set, or the
// built-ins) and compiles them itself (scanThread.ts), while this thread is free to read git.
import { existsSync, realpathSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import { isSea } from "node:sea";
import { Worker } from "node:worker_threads";
import { CliError } from "./errors.js";
import type { TextScanner, TextsScanner } from "./historyScan.js";
import type { ScanReply, ScanRequest, ThreadPolicies, ThreadReady } from "./scanThread.js";

/** Texts sent to a scan thread at once, at most (a larger text goes alone): small enough that the threads finish together. */
const CHUNK_BYTES = 64 * 1024;

/** Engine threads for `scan history --offline` by default: at most this many. */
export const MAX_SCAN_THREADS = 4;

/**
 * One per core the process may use but one (the CLI's thread and git need about a core), at least
 * one and at most MAX_SCAN_THREADS. On 2 busy cores a second engine thread cost 10% more CPU for
 * no less wall time (docs/performance.md).
 */
export const defaultScanThreads = (): number => Math.max(1, Math.min(availableParallelism() - 1, MAX_SCAN_THREADS));

/** The texts of one scan() call, in chunks of at most CHUNK_BYTES (a larger text alone): [start, end) indexes. */
function chunksOf(texts: { content: Buffer }[]): [number, number][] {
  const chunks: [number, number][] = [];
  let start = 0;
  let bytes = 0;
  texts.forEach((t, i) => {
    if (i > start && bytes + t.content.length > CHUNK_BYTES) {
      chunks.push([start, i]);
      start = i;
      bytes = 0;
    }
    bytes += t.content.length;
  });
  if (start < texts.length) chunks.push([start, texts.length]);
  return chunks;
}

/**
 * The engine on `count` threads of their own (scanThread.js, beside the command's entry), for
 * many texts at once: scan() resolves with each text's findings, as offlineScanner() gives them.
 * The texts go in chunks to whichever thread is free (first come, first served across calls, so
 * a later call's texts start while an earlier one's last chunk is scanned). Null in the single
 * executable (one file: no module to start a thread from) or where the command has no such file
 * beside it: then this thread scans.
 */
export function offlineThreads(
  policies: ThreadPolicies,
  count: number,
): { ready: Promise<ThreadReady>; scan: TextsScanner; close: () => Promise<void> } | null {
  if (isSea()) return null;
  let entry: string;
  try {
    entry = join(dirname(realpathSync(process.argv[1] ?? "")), "scanThread.js");
  } catch {
    return null;
  }
  if (!existsSync(entry)) return null;
  type Findings = ReturnType<TextScanner>;
  interface Call {
    texts: { path: string; content: Buffer }[];
    findings: Findings[];
    left: number;
    resolve: (f: Findings[]) => void;
    reject: (e: Error) => void;
  }
  const queue: { call: Call; start: number; end: number }[] = [];
  const calls = new Set<Call>();
  let failure: Error | undefined;
  let readyAnswer!: (r: ThreadReady) => void;
  let readyFailed!: (e: Error) => void;
  const ready = new Promise<ThreadReady>((resolve, reject) => {
    readyAnswer = resolve;
    readyFailed = reject;
  });
  ready.catch(() => undefined); // awaited by the caller; a failure also fails every scan
  const fail = (err: Error) => {
    failure ??= err;
    readyFailed(failure);
    for (const c of calls) c.reject(failure);
    calls.clear();
    queue.length = 0;
  };
  let next = 0;
  const threads = Array.from({ length: Math.max(1, count) }, () => {
    const worker = new Worker(entry, { workerData: policies });
    const thread = { worker, busy: undefined as { id: number; call: Call; start: number } | undefined };
    worker.on("message", (reply: ScanReply | ThreadReady | { refused: string }) => {
      // First, what the thread resolved: the policies' version, or why it could not (exit 2).
      if ("refused" in reply) return fail(new CliError(reply.refused));
      if ("version" in reply) return readyAnswer(reply);
      const job = thread.busy;
      thread.busy = undefined;
      if (!job || job.id !== reply.id || !calls.has(job.call)) return;
      if ("error" in reply) return fail(new CliError(`the scan thread failed: ${reply.error}`));
      reply.findings.forEach((f, i) => (job.call.findings[job.start + i] = f as Findings));
      if (--job.call.left === 0) {
        calls.delete(job.call);
        job.call.resolve(job.call.findings);
      }
      pump();
    });
    worker.on("error", (err) => fail(new CliError(`the scan thread failed: ${err.message}`)));
    worker.on("exit", (code) => fail(new CliError(`the scan thread stopped (exit ${code})`)));
    return thread;
  });
  /** Gives each free thread the next chunk. */
  const pump = () => {
    for (const thread of threads) {
      if (thread.busy || !queue.length) continue;
      const { call, start, end } = queue.shift()!;
      const texts = call.texts.slice(start, end);
      // One buffer of its own (never Node's shared pool), moved to the thread, not copied.
      const bytes = new Uint8Array(texts.reduce((n, t) => n + t.content.length, 0));
      const ends: number[] = [];
      for (const t of texts) {
        bytes.set(t.content, ends.at(-1) ?? 0);
        ends.push((ends.at(-1) ?? 0) + t.content.length);
      }
      const id = next++;
      thread.busy = { id, call, start };
      const request: ScanRequest = { id, paths: texts.map((t) => t.path), bytes: bytes.buffer, ends };
      thread.worker.postMessage(request, [bytes.buffer]);
    }
  };
  return {
    ready,
    scan: (texts) => {
      if (failure) return Promise.reject(failure);
      if (!texts.length) return Promise.resolve([]);
      return new Promise((resolve, reject) => {
        const chunks = chunksOf(texts);
        const call: Call = { texts, findings: [], left: chunks.length, resolve, reject };
        calls.add(call);
        for (const [start, end] of chunks) queue.push({ call, start, end });
        pump();
      });
    },
    close: async () => {
      await Promise.all(threads.map((t) => t.worker.terminate()));
    },
  };
}
