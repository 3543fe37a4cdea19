// CPU-heavy work (pattern matching, PDF rendering, compiling untrusted patterns) runs on worker
// threads, never on the thread that answers requests: one organization's slow work must not
// stall gRPC, health checks or other organizations. Piscina keeps the threads; in front of it a
// fair queue hands each free thread to the next organization in turn (round robin), so an
// organization with a hundred queued jobs waits behind its own jobs only. Every job has a
// deadline and may be cancelled; a job that overruns is stopped by terminating its thread
// (RE2 and PDF rendering cannot be interrupted any other way), and piscina starts a new one.
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { basename } from "node:path";
import { flushLogsSync, workerJobs, type Logger } from "@verdict/kit";
import { move, Piscina, transferableSymbol, valueSymbol } from "piscina";

/** Why a job did not finish: it ran out of time, its caller gave up, or the pool was closed. */
export type PoolFailure = "deadline" | "cancelled" | "closed";

/** How long close() waits for threads still inside a native call before leaving them to exit. */
const CLOSE_WAIT_MS = 500;

/**
 * A worker's result whose buffers move to the calling thread rather than being copied (they are
 * detached on the worker): return `withTransfer(outcome, [buffer])` from the worker module.
 */
export function withTransfer<T extends object>(value: T, buffers: ArrayBuffer[]): T {
  return move({
    get [transferableSymbol]() {
      return buffers;
    },
    get [valueSymbol]() {
      return value;
    },
  }) as unknown as T;
}

export class PoolJobError extends Error {
  constructor(
    readonly reason: PoolFailure,
    message: string,
  ) {
    super(message);
    this.name = "PoolJobError";
  }
}

export interface FairPoolOptions {
  /** The worker module (its default export is called with each job's input). */
  filename: string;
  /** The pool's name in metrics (verdict_worker_jobs{pool}); default: the worker module's name. */
  name?: string;
  /** Worker threads; default: one per core but one, at least one. */
  threads?: number;
  /** V8 heap limit of each worker, in MiB (a runaway job dies alone). */
  maxOldGenerationSizeMb?: number;
  /**
   * Threads one key may hold at once; default: all but one (at least one), so with two threads
   * or more one is always left for the other keys however many jobs one key queues.
   */
  maxThreadsPerKey?: number;
  /**
   * Threads kept started beyond `threads` (default none). The fair queue still runs at most
   * `threads` jobs at once; a spare lets the next job start on a thread that is ready while the
   * replacement of a thread terminated at a deadline is still starting (and, in a worker module
   * that prepares itself before it reports ready, still preparing).
   */
  spareThreads?: number;
  /**
   * With spare threads: when every running job has held its thread this long, the next key in
   * turn that holds no thread starts on a spare one (at most `spareThreads` jobs above
   * `threads`). One organization's long jobs (a costly pattern over a large file runs for
   * seconds and cannot be interrupted) then delay another's short ones by this long, not by
   * theirs. Default: never.
   */
  burstAfterMs?: number;
  /** Passed to every thread as worker_threads' workerData (a SharedArrayBuffer stays shared). */
  workerData?: unknown;
}

export interface PoolRunOptions {
  /**
   * The job fails with reason "deadline" when it has not finished this long after it was
   * submitted (or, with timeoutFrom "started", after it got a thread: time spent queued behind
   * other keys' jobs does not count).
   */
  timeoutMs: number;
  timeoutFrom?: "submitted" | "started";
  /** Called when the job gets a thread. */
  onStart?: () => void;
  /** Aborting it fails the job with reason "cancelled" (a client that disconnected). */
  signal?: AbortSignal;
  /** Buffers of the input moved to the worker thread rather than copied (detached here). */
  transferList?: ArrayBuffer[];
}

interface Job {
  key: string;
  input: unknown;
  opts: PoolRunOptions;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
  /** Aborts the running job (terminates its thread) with the failure it ended with. */
  abort: AbortController;
  settled: boolean;
  cleanup: () => void;
  /** Starts the deadline (at submission, or when the job gets a thread). */
  startTimer: () => void;
  /** When it got a thread. */
  startedAt: number;
}

/** One thread per core, leaving one for the request threads; at least one. */
export function defaultThreads(): number {
  return Math.max(1, availableParallelism() - 1);
}

/**
 * The built worker module beside a source file. Services run from dist/, where it is simply the
 * sibling; unit tests run the TypeScript sources, whose workers are taken from the build.
 */
export function workerFile(moduleUrl: string, name: string): string {
  const path = fileURLToPath(new URL(name, moduleUrl));
  return path.includes("/src/") && moduleUrl.endsWith(".ts") ? path.replace(/\/src\/(?!.*\/src\/)/, "/dist/") : path;
}

/**
 * Worker threads of every pool in this process that have not exited yet, terminated ones
 * included: Worker.terminate() cannot stop a thread inside a native call, it only stops when the
 * call returns (one costly RE2 pattern over a large file: seconds to minutes).
 */
let liveThreads = 0;
const trackedThreads = new WeakSet<object>();

function trackThreads(piscina: Piscina): void {
  for (const worker of piscina.threads) {
    if (trackedThreads.has(worker)) continue;
    trackedThreads.add(worker);
    liveThreads++;
    worker.once("exit", () => liveThreads--);
  }
}

/** Worker threads of the pools in this process that are still running (see exitProcess). */
export function liveWorkerThreads(): number {
  return liveThreads;
}

/**
 * Ends the process with this code, also when a worker thread is stuck in a native call.
 * process.exit() joins every worker thread first, so one thread inside a long RE2 call holds
 * the exit (and with it a SIGTERM's drain) until that call returns. With such a thread left the
 * process says so, flushes its logs and replaces itself with a Node that exits with the same
 * code at once (execve: the kernel discards the stuck thread with the old image); should that
 * fail, it kills itself.
 */
export function exitProcess(code: number, logger?: Logger): void {
  if (liveThreads === 0) process.exit(code);
  if (logger) {
    logger.warn(
      { threads: liveThreads },
      "worker threads are still inside a native call (a costly pattern); exiting without waiting for them",
    );
    flushLogsSync(logger);
  }
  try {
    process.execve!(process.execPath, [process.execPath, "--eval", `process.exit(${Number(code)})`], {});
  } catch {
    process.kill(process.pid, "SIGKILL");
  }
}

export class FairPool<In, Out> {
  private readonly piscina: Piscina;
  readonly threads: number;
  readonly name: string;
  private running = 0;
  /** The jobs on a thread now. */
  private readonly active = new Set<Job>();
  /** Queued jobs per key, and the keys with queued jobs in turn order. */
  private readonly queues = new Map<string, Job[]>();
  private readonly turns: string[] = [];
  /** Queued and running jobs per key. */
  private readonly perKey = new Map<string, number>();
  /** Running jobs per key. */
  private readonly runningPerKey = new Map<string, number>();
  readonly maxThreadsPerKey: number;
  private readonly spareThreads: number;
  private readonly burstAfterMs: number | undefined;
  private burstTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(opts: FairPoolOptions) {
    this.threads = opts.threads ?? defaultThreads();
    this.name = opts.name ?? basename(opts.filename).replace(/\.[cm]?js$/, "");
    this.maxThreadsPerKey = Math.min(this.threads, opts.maxThreadsPerKey ?? Math.max(1, this.threads - 1));
    this.spareThreads = Math.max(0, opts.spareThreads ?? 0);
    this.burstAfterMs = opts.burstAfterMs;
    const started = this.threads + this.spareThreads;
    this.piscina = new Piscina({
      filename: opts.filename,
      minThreads: started,
      maxThreads: started,
      ...(opts.workerData !== undefined ? { workerData: opts.workerData } : {}),
      // The fair queue holds the waiting jobs; piscina only ever gets as many as it has threads.
      concurrentTasksPerWorker: 1,
      idleTimeout: Infinity,
      resourceLimits: opts.maxOldGenerationSizeMb ? { maxOldGenerationSizeMb: opts.maxOldGenerationSizeMb } : undefined,
    });
    // A thread terminated by an abort is replaced by piscina; its error event needs a listener.
    this.piscina.on("error", () => undefined);
    this.piscina.on("workerCreate", () => trackThreads(this.piscina));
    trackThreads(this.piscina);
  }

  /** Jobs of this key queued or running. */
  inFlight(key: string): number {
    return this.perKey.get(key) ?? 0;
  }

  /** Jobs waiting for a thread, all keys. */
  get queued(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.length;
    return n;
  }

  run(key: string, input: In, opts: PoolRunOptions): Promise<Out> {
    if (this.closed) return Promise.reject(new PoolJobError("closed", "The service is shutting down"));
    if (opts.signal?.aborted) return Promise.reject(new PoolJobError("cancelled", "The request was cancelled"));
    return new Promise<Out>((resolve, reject) => {
      const job: Job = {
        key,
        input,
        opts,
        resolve: resolve as (v: unknown) => void,
        reject,
        abort: new AbortController(),
        settled: false,
        cleanup: () => undefined,
        startTimer: () => undefined,
        startedAt: 0,
      };
      let timer: NodeJS.Timeout | undefined;
      job.startTimer = () => {
        timer = setTimeout(
          () => this.fail(job, new PoolJobError("deadline", `did not finish within ${opts.timeoutMs} ms`)),
          opts.timeoutMs,
        );
      };
      if (opts.timeoutFrom !== "started") job.startTimer();
      const onCancel = () => this.fail(job, new PoolJobError("cancelled", "The request was cancelled"));
      opts.signal?.addEventListener("abort", onCancel, { once: true });
      job.cleanup = () => {
        clearTimeout(timer);
        job.startTimer = () => undefined;
        opts.signal?.removeEventListener("abort", onCancel);
      };
      this.perKey.set(key, this.inFlight(key) + 1);
      let queue = this.queues.get(key);
      if (!queue) {
        queue = [];
        this.queues.set(key, queue);
        this.turns.push(key);
      }
      queue.push(job);
      this.dispatch();
    });
  }

  /**
   * Fails the pending jobs and terminates the threads (a running job is abandoned). A thread inside
   * a native RE2 call only stops when that call returns, which for a costly pattern over a large
   * file can be seconds or minutes: shutdown waits at most CLOSE_WAIT_MS for it, and the process
   * exits around it (exitProcess), so SIGTERM drains within the grace period whatever is being
   * scanned.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.burstTimer);
    for (const queue of [...this.queues.values()])
      for (const job of [...queue]) this.fail(job, new PoolJobError("closed", "The service is shutting down"));
    // Running jobs fail now too, so the calls waiting on them answer instead of holding the drain.
    for (const job of [...this.active]) this.fail(job, new PoolJobError("closed", "The service is shutting down"));
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, CLOSE_WAIT_MS);
      timer.unref();
    });
    await Promise.race([this.piscina.destroy().catch(() => undefined), waited]);
    clearTimeout(timer);
  }

  private dispatch(): void {
    this.startWaiting();
    workerJobs.set({ pool: this.name, state: "running" }, this.running);
    workerJobs.set({ pool: this.name, state: "queued" }, this.queued);
  }

  private startWaiting(): void {
    while (this.running < this.threads) {
      // The next key in turn that has not used up its share of the threads.
      const at = this.turns.findIndex((key) => (this.runningPerKey.get(key) ?? 0) < this.maxThreadsPerKey);
      if (at < 0) return;
      const key = this.turns.splice(at, 1)[0]!;
      const queue = this.queues.get(key)!;
      const job = queue.shift()!;
      if (queue.length) this.turns.push(key);
      else this.queues.delete(key);
      this.start(job);
    }
    this.startBursts();
  }

  /** Starts a job of a key holding no thread on a spare thread once every running job is long. */
  private startBursts(): void {
    clearTimeout(this.burstTimer);
    this.burstTimer = undefined;
    if (this.burstAfterMs === undefined || this.closed) return;
    while (this.running < this.threads + this.spareThreads && this.turns.length) {
      let latest = 0;
      for (const job of this.active) latest = Math.max(latest, job.startedAt);
      const due = latest + this.burstAfterMs - Date.now();
      if (due > 0) {
        this.burstTimer = setTimeout(() => this.dispatch(), due);
        this.burstTimer.unref();
        return;
      }
      const at = this.turns.findIndex((key) => !this.runningPerKey.get(key));
      if (at < 0) return;
      const key = this.turns.splice(at, 1)[0]!;
      const queue = this.queues.get(key)!;
      const job = queue.shift()!;
      if (queue.length) this.turns.push(key);
      else this.queues.delete(key);
      this.start(job);
    }
  }

  private start(job: Job): void {
    trackThreads(this.piscina);
    if (job.opts.timeoutFrom === "started") job.startTimer();
    job.opts.onStart?.();
    job.startedAt = Date.now();
    this.running++;
    this.active.add(job);
    this.runningPerKey.set(job.key, (this.runningPerKey.get(job.key) ?? 0) + 1);
    this.piscina
      .run(job.input, {
        signal: job.abort.signal,
        ...(job.opts.transferList ? { transferList: job.opts.transferList } : {}),
      })
      .then(
        (out) => this.settle(job, () => job.resolve(out)),
        (err) =>
          this.settle(job, () =>
            job.reject(this.closed ? new PoolJobError("closed", "The service is shutting down") : err),
          ),
      )
      .finally(() => {
        this.running--;
        this.active.delete(job);
        const left = this.runningPerKey.get(job.key)! - 1;
        if (left > 0) this.runningPerKey.set(job.key, left);
        else this.runningPerKey.delete(job.key);
        this.dispatch();
      });
  }

  /** A deadline or cancellation: out of the queue, or its thread stopped. */
  private fail(job: Job, err: PoolJobError): void {
    const queue = this.queues.get(job.key);
    const at = queue?.indexOf(job) ?? -1;
    if (queue && at >= 0) {
      queue.splice(at, 1);
      if (!queue.length) {
        this.queues.delete(job.key);
        this.turns.splice(this.turns.indexOf(job.key), 1);
      }
      workerJobs.set({ pool: this.name, state: "queued" }, this.queued);
    } else {
      job.abort.abort(err);
    }
    this.settle(job, () => job.reject(err));
  }

  private settle(job: Job, finish: () => void): void {
    if (job.settled) return;
    job.settled = true;
    job.cleanup();
    const left = this.inFlight(job.key) - 1;
    if (left > 0) this.perKey.set(job.key, left);
    else this.perKey.delete(job.key);
    finish();
  }
}
