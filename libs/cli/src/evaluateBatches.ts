// Sends a change as batches (batches.ts), `concurrency` at a time, within the organization's
// rate limit: each POST's X-RateLimit-* headers say how many requests are left in the window;
// when none are, the next batch waits for the window to start again (a 429 that still happens
// is retried by the SDK after its Retry-After). Queued (202) batches are polled until done. Any
// batch that fails ends the run: no partial result is ever reported as the change's.
import { EncodedJson, type Evaluation, type RateLimitState, type VerdictClient } from "@verdict/sdk";
import {
  batchChunks,
  batchesFor,
  LARGE_BATCH,
  SYNC_BATCH,
  takeBatch,
  type EncodedFile,
  type Sized,
} from "./batches.js";
import { CliError, describeError } from "./errors.js";

export interface Envelope {
  repository: string;
  ref: string;
  base_ref?: string;
  policies?: string[];
  /** The findings are bypassed with this reason (the API records them as bypass events). */
  bypass_reason?: string;
}

export interface BatchRunOptions {
  concurrency: number;
  /** Progress for people (stderr). */
  note: (text: string) => void;
  /** The longest wait for a rate-limit window the run accepts (as the SDK's longest Retry-After). */
  maxWaitMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** Each completed evaluation with the files it covered, files[start] to files[end - 1]. */
  batchDone?: (start: number, end: number, evaluation: Evaluation) => void;
}

const sleepMs = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
/** 4471 → "4,471", as toLocaleString("en-US") writes it, without loading ICU's locale data (tens of ms of CPU). */
const grouped = (n: number) => String(n).replace(/\B(?=(\d{3})+$)/g, ",");
const plural = (n: number, word: string) => `${grouped(n)} ${word}${n === 1 ? "" : "s"}`;

/** The budget to go by: a later window's, or the lower count of the same window (answers arrive out of order). */
function latest(known: RateLimitState | undefined, answer: RateLimitState | undefined): RateLimitState | undefined {
  if (!answer || !known || answer.resetAt > known.resetAt) return answer ?? known;
  if (answer.resetAt === known.resetAt && answer.remaining < known.remaining) return answer;
  return known;
}

/**
 * The completed evaluations of a change, one per batch, in the order of the files. `read` loads
 * and encodes one file when its batch is taken (null: it cannot be sent). No evaluations: no
 * file could be sent.
 */
export async function evaluateInBatches<F extends Sized>(
  client: VerdictClient,
  envelope: Envelope,
  files: F[],
  read: (f: F) => EncodedFile | null,
  opts: BatchRunOptions,
): Promise<Evaluation[]> {
  const sleep = opts.sleep ?? sleepMs;
  const now = opts.now ?? Date.now;
  const maxWaitMs = opts.maxWaitMs ?? 60_000;
  const total = files.length;
  // Several batches in flight poll at once: keep their GETs well inside the read limit.
  const pollMs = Math.max(1000, 400 * opts.concurrency);

  let next = 0;
  let bytesLeft = files.reduce((n, f) => n + f.bytes, 0);
  let numbered = 0;
  let inFlight = 0;
  let budget: RateLimitState | undefined;
  let failure: { batch: number; start: number; end: number; err: unknown } | undefined;
  const done: { start: number; evaluation: Evaluation }[] = [];
  const multi = batchesFor(total, bytesLeft, SYNC_BATCH) > 1;
  if (multi) {
    const mb = (bytesLeft / 1e6).toFixed(1);
    opts.note(
      `evaluating ${plural(total, "file")} (${mb} MB) as about ${batchesFor(total, bytesLeft, SYNC_BATCH)} evaluations, ${opts.concurrency} at a time`,
    );
  }

  /** Requests the window still allows, counting the ones on their way; Infinity when unknown or the window is over. */
  const available = () => (!budget || budget.resetAt <= now() ? Infinity : budget.remaining - inFlight);

  const waitForWindow = async () => {
    while (budget && available() <= 0) {
      const wait = budget.resetAt - now() + 50;
      if (wait > maxWaitMs) {
        throw new CliError(
          `rate limit of ${budget.limit} requests per ${budget.windowSeconds} s reached; it resets in ${Math.ceil(wait / 1000)} s`,
        );
      }
      opts.note(
        `rate limit: ${budget.remaining} of ${budget.limit} requests left in this ${budget.windowSeconds} s window; waiting ${Math.ceil(wait / 1000)} s`,
      );
      const over = budget;
      await sleep(wait);
      // A new window, with the whole limit, until a response tells otherwise.
      if (budget === over)
        budget = { ...over, remaining: over.limit, resetAt: over.resetAt + over.windowSeconds * 1000 };
    }
  };

  const worker = async () => {
    while (!failure && next < total) {
      let batch = 0;
      let start = next;
      let end = next;
      try {
        await waitForWindow();
        if (failure || next >= total) return;
        // Fewer requests left than sync batches to go: larger (queued) batches need fewer.
        const limit = available() < batchesFor(total - next, bytesLeft, SYNC_BATCH) ? LARGE_BATCH : SYNC_BATCH;
        start = next;
        const taken = takeBatch(files, start, limit, read);
        end = next = taken.end;
        for (let i = start; i < end; i++) bytesLeft -= files[i]!.bytes;
        if (taken.entries.length === 0) continue;
        batch = ++numbered;
        inFlight++;
        let submitted: Awaited<ReturnType<VerdictClient["submitEvaluation"]>>;
        try {
          submitted = await client.submitEvaluation(new EncodedJson(batchChunks(envelope, taken.entries)));
        } finally {
          inFlight--;
        }
        budget = latest(budget, submitted.rateLimit);
        let e = submitted.evaluation;
        if (e.status === "pending") {
          opts.note(`queued ${e.id} (${plural(taken.entries.length, "file")}); waiting for the result…`);
          e = await client.waitForEvaluation(e, { intervalMs: pollMs });
        }
        if (e.status === "failed")
          throw new CliError(`evaluation ${e.id} could not complete: ${e.failure_reason ?? "unknown reason"}`);
        done.push({ start, evaluation: e });
        opts.batchDone?.(start, end, e);
        if (multi)
          opts.note(
            `batch ${batch}: ${e.id}, files ${start + 1}–${end} of ${grouped(total)}, ${e.passed ? "passed" : "failed"}`,
          );
      } catch (err) {
        failure ??= { batch, start, end, err };
      }
    }
  };

  await Promise.all(Array.from({ length: Math.max(1, opts.concurrency) }, worker));
  if (failure) {
    const { batch, start, end, err } = failure;
    // One request: its own error, as any other command's.
    if (!multi) throw err;
    const which =
      batch === 0 ? "sending the change" : `batch ${batch} (files ${start + 1}–${end} of ${grouped(total)})`;
    const finished = done.length
      ? ` (${plural(done.length, "evaluation")} completed before it stopped: ${done.map((d) => d.evaluation.id).join(", ")})`
      : "";
    throw new CliError(`${which} failed: ${describeError(err)}; no result for the change${finished}`);
  }
  return done.sort((a, b) => a.start - b.start).map((d) => d.evaluation);
}
