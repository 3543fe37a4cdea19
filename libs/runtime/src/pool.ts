// CPU-heavy work (pattern matching, PDF rendering, compiling untrusted patterns) runs on worker
// threads, never on the thread that answers requests: one organization's slow work must not
// stall gRPC, health checks or other organizations. Piscina keeps the threads; in front of it a
// fair queue hands each free thread to the next organization in turn (round robin), so an
// organization with a hundred queued jobs waits behind its own jobs only. Every job has a
// deadline and may be cancelled; a job that overruns is stopped by terminating its thread
// (RE2 and PDF rendering cannot be interrupted any other way), and piscina starts a new one.
//
// Each job's thread is known (poolWorker.ts records it), so the pool can also give CPU priority
// to the work within an organization's fair share: a job that has held its thread past
// `lowPriorityAfterMs` while a key whose jobs run much shorter has work gets its thread's
// niceness raised (it is retired after that job, as a niceness cannot be lowered again without
// a privilege), a thread terminated
// at a deadline is made nicer before it is terminated (an RE2 call runs on until it returns), and
// such a thread counts in its key's share until it has really exited.
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { basename } from "node:path";
import { flushLogsSync, workerJobs, type Logger } from "@verdict/kit";
import { move, Piscina, transferableSymbol, valueSymbol } from "piscina";
import type { Worker } from "node:worker_threads";
import type { PoolTask } from "./poolWorker.js";
import { LOW_PRIORITY_NICENESS, lowerThreadPriority } from "./threadPriority.js";

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
  /**
   * A job that has held its thread this long while another key whose jobs run much shorter (a
   * moving average of job durations) has a job queued or running gets its thread's niceness
   * raised to
   * LOW_PRIORITY_NICENESS (Linux), so the lighter key's work wins the cores it competes for; that
   * thread is retired after the job (replaced by a new one, as at a deadline). Default: never.
   */
  lowPriorityAfterMs?: number;
  /**
   * A thread terminated at a deadline or cancellation inside a native call (it runs on until the
   * call returns) counts in its key's share of the threads until it has exited, so one key cannot
   * hold more cores than its share by overrunning its deadlines. Default: not counted (the key's
   * next job may then wait for as long as that call runs, which a caller with a short timeout of
   * its own, such as a pattern check, should not).
   */
  countTerminatedThreads?: boolean;
  /** The niceness every thread of the pool runs at (Linux; raised only). Default: unchanged. */
  niceness?: number;
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
  /** Its place in the pool's thread-id slots while it runs (-1: none). */
  slot: number;
  /** The thread that ran it, once known (read from its slot). */
  thread?: JobThread;
  /** Its thread's niceness was raised: the thread is retired after the job. */
  lowPriority: boolean;
}

/** Which thread runs a job: the worker's threadId and the kernel's thread id. */
interface JobThread {
  threadId: number;
  tid: number;
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

/** lowPriorityAfterMs: a key is heavier than another when its jobs run this many times longer. */
const HEAVIER = 4;
/** The weight of a key's last job in its moving average of job durations. */
const JOB_TIME_WEIGHT = 0.2;
const MAX_KEYS_TIMED = 10_000;

/** What every pool thread runs for a job (records its thread, then calls the pool's module). */
const POOL_WORKER = workerFile(import.meta.url, "./poolWorker.js");

/** A pool thread as piscina's load balancer sees it (id: the worker's threadId). */
type PiscinaWorker = Parameters<NonNullable<ConstructorParameters<typeof Piscina>[0]>["loadBalancer"] & {}>[1][number];

/** An idle thread that is not being retired (piscina's default balancer picks the first idle one). */
function pickIdle(workers: PiscinaWorker[], retiring: ReadonlySet<number>): PiscinaWorker | null {
  for (const worker of workers) if (worker.currentUsage === 0 && !retiring.has(worker.id)) return worker;
  return null;
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
  private readonly lowPriorityAfterMs: number | undefined;
  private priorityTimer: NodeJS.Timeout | undefined;
  private readonly niceness: number;
  private readonly countTerminatedThreads: boolean;
  private readonly filename: string;
  /** Two Int32 per running job: the threadId and kernel thread id of the thread running it. */
  private readonly slots: SharedArrayBuffer;
  private readonly slotIds: Int32Array;
  private readonly freeSlots: number[];
  /** Threads terminated at a deadline that have not exited yet, per key (they count in its share). */
  private readonly heldPerKey = new Map<string, number>();
  /** Each key's recent job durations (see lighterKeyHasWork), least recently updated first. */
  private readonly jobMs = new Map<string, number>();
  /** Threads (by threadId) being retired: piscina gives them no job. */
  private readonly retiring = new Set<number>();
  private closed = false;

  constructor(opts: FairPoolOptions) {
    this.threads = opts.threads ?? defaultThreads();
    this.name = opts.name ?? basename(opts.filename).replace(/\.[cm]?js$/, "");
    this.maxThreadsPerKey = Math.min(this.threads, opts.maxThreadsPerKey ?? Math.max(1, this.threads - 1));
    this.spareThreads = Math.max(0, opts.spareThreads ?? 0);
    this.burstAfterMs = opts.burstAfterMs;
    this.lowPriorityAfterMs = opts.lowPriorityAfterMs;
    this.niceness = Math.max(0, opts.niceness ?? 0);
    this.countTerminatedThreads = opts.countTerminatedThreads ?? false;
    this.filename = opts.filename;
    const started = this.threads + this.spareThreads;
    this.slots = new SharedArrayBuffer(started * 2 * Int32Array.BYTES_PER_ELEMENT);
    this.slotIds = new Int32Array(this.slots);
    this.freeSlots = Array.from({ length: started }, (_, i) => i);
    this.piscina = new Piscina({
      // Piscina preloads the worker module when a thread starts; each job runs through
      // poolWorker.js, which records its thread and calls that module.
      filename: opts.filename,
      minThreads: started,
      maxThreads: started,
      ...(opts.workerData !== undefined ? { workerData: opts.workerData } : {}),
      // The fair queue holds the waiting jobs; piscina only ever gets as many as it has threads.
      concurrentTasksPerWorker: 1,
      idleTimeout: Infinity,
      // Any idle thread but one being retired (piscina's default picks the first idle one).
      loadBalancer: (_task, workers) => pickIdle(workers, this.retiring),
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

  /** Threads of this key terminated at a deadline that are still running (inside a native call). */
  held(key: string): number {
    return this.heldPerKey.get(key) ?? 0;
  }

  /** Threads this key holds: its running jobs and its terminated threads that have not exited. */
  private holding(key: string): number {
    return (this.runningPerKey.get(key) ?? 0) + this.held(key);
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
        slot: -1,
        lowPriority: false,
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
    clearTimeout(this.priorityTimer);
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
    this.lowerLongJobs();
    workerJobs.set({ pool: this.name, state: "running" }, this.running);
    workerJobs.set({ pool: this.name, state: "queued" }, this.queued);
  }

  private startWaiting(): void {
    while (this.running < this.threads) {
      // The next key in turn that has not used up its share of the threads.
      const at = this.turns.findIndex((key) => this.holding(key) < this.maxThreadsPerKey);
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
      const at = this.turns.findIndex((key) => this.holding(key) === 0);
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
    job.slot = this.freeSlots.pop() ?? -1;
    if (job.slot >= 0) {
      Atomics.store(this.slotIds, job.slot * 2, 0);
      Atomics.store(this.slotIds, job.slot * 2 + 1, 0);
    }
    this.running++;
    this.active.add(job);
    this.runningPerKey.set(job.key, (this.runningPerKey.get(job.key) ?? 0) + 1);
    const task: PoolTask = {
      module: this.filename,
      input: job.input,
      slots: this.slots,
      slot: job.slot,
      niceness: this.niceness,
    };
    this.piscina
      .run(task, {
        filename: POOL_WORKER,
        signal: job.abort.signal,
        ...(job.opts.transferList ? { transferList: job.opts.transferList } : {}),
      })
      .then(
        (out) => {
          this.retireIfLowered(job);
          this.settle(job, () => job.resolve(out));
        },
        (err) => {
          this.retireIfLowered(job);
          this.settle(job, () =>
            job.reject(this.closed ? new PoolJobError("closed", "The service is shutting down") : err),
          );
        },
      )
      .finally(() => {
        this.recordJobTime(job, Date.now());
        if (job.slot >= 0) this.freeSlots.push(job.slot);
        job.slot = -1;
        this.running--;
        this.active.delete(job);
        const left = this.runningPerKey.get(job.key)! - 1;
        if (left > 0) this.runningPerKey.set(job.key, left);
        else this.runningPerKey.delete(job.key);
        this.dispatch();
      });
  }

  /** The thread running a job, once it has started on one. */
  private threadOf(job: Job): JobThread | undefined {
    if (job.thread || job.slot < 0) return job.thread;
    const threadId = Atomics.load(this.slotIds, job.slot * 2);
    // 0 is the main thread's id: the job has not reached a worker thread yet.
    if (threadId === 0) return undefined;
    job.thread = { threadId, tid: Atomics.load(this.slotIds, job.slot * 2 + 1) };
    return job.thread;
  }

  private workerOf(thread: JobThread): Worker | undefined {
    return this.piscina.threads.find((worker) => worker.threadId === thread.threadId);
  }

  /**
   * Lowers the priority of the threads of jobs that have run past lowPriorityAfterMs while a
   * lighter key has work, and comes back when the next one is due.
   */
  private lowerLongJobs(): void {
    clearTimeout(this.priorityTimer);
    this.priorityTimer = undefined;
    const after = this.lowPriorityAfterMs;
    if (after === undefined || this.closed) return;
    const now = Date.now();
    let next = Infinity;
    for (const job of this.active) {
      // Alone, a long job takes the cores from nobody.
      if (job.lowPriority || !this.lighterKeyHasWork(job, now)) continue;
      const due = job.startedAt + after - now;
      if (due > 0) next = Math.min(next, due);
      // Not on a thread yet (a replacement still starting): try again later.
      else if (!this.lowerPriority(job)) next = Math.min(next, after);
    }
    if (next === Infinity) return;
    this.priorityTimer = setTimeout(() => this.lowerLongJobs(), next);
    this.priorityTimer.unref();
  }

  /**
   * Another key with work (queued or running) runs much shorter jobs: the long job is then the
   * heavier key's, whose excess should yield. A light key's job that runs long on a busy machine
   * keeps its priority, and a key whose jobs are not known yet is not taken for a lighter one.
   */
  private lighterKeyHasWork(job: Job, now: number): boolean {
    const mine = Math.max(this.jobMs.get(job.key) ?? 0, now - job.startedAt);
    for (const other of this.perKey.keys()) {
      const theirs = other === job.key ? undefined : this.jobMs.get(other);
      if (theirs !== undefined && HEAVIER * theirs < mine) return true;
    }
    return false;
  }

  /** A moving average of each key's job durations (its last jobs weigh most). */
  private recordJobTime(job: Job, now: number): void {
    const ms = now - job.startedAt;
    const before = this.jobMs.get(job.key);
    this.jobMs.delete(job.key);
    this.jobMs.set(job.key, before === undefined ? ms : before + JOB_TIME_WEIGHT * (ms - before));
    // The keys that ran least recently are forgotten first.
    if (this.jobMs.size > MAX_KEYS_TIMED) this.jobMs.delete(this.jobMs.keys().next().value!);
  }

  /** Raises the niceness of a job's thread, which is then retired after the job; false if not yet on one. */
  private lowerPriority(job: Job): boolean {
    const thread = this.threadOf(job);
    if (!thread) return false;
    job.lowPriority = true;
    if (!lowerThreadPriority(thread.tid, LOW_PRIORITY_NICENESS)) return true;
    const worker = this.workerOf(thread);
    if (!worker) return true;
    // From now on piscina gives it no job; once the current one is over it is replaced.
    this.retiring.add(thread.threadId);
    worker.once("exit", () => this.retiring.delete(thread.threadId));
    return true;
  }

  /** A job whose thread was made nicer retires that thread (its niceness cannot be lowered again). */
  private retireIfLowered(job: Job): void {
    // A thread stopped at a deadline or cancellation is terminated by piscina already.
    if (!job.thread || job.abort.signal.aborted || !this.retiring.has(job.thread.threadId)) return;
    void this.workerOf(job.thread)?.terminate();
  }

  /**
   * A thread terminated inside a native call keeps running until the call returns: it runs at a
   * low priority meanwhile and, with countTerminatedThreads, counts in its key's share of the
   * threads until it has exited.
   */
  private holdUntilExit(job: Job): void {
    const thread = this.threadOf(job);
    if (!thread) return;
    lowerThreadPriority(thread.tid, LOW_PRIORITY_NICENESS);
    const worker = this.workerOf(thread);
    if (!worker || !this.countTerminatedThreads) return;
    this.heldPerKey.set(job.key, this.held(job.key) + 1);
    worker.once("exit", () => {
      const left = this.held(job.key) - 1;
      if (left > 0) this.heldPerKey.set(job.key, left);
      else this.heldPerKey.delete(job.key);
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
    } else if (!job.settled) {
      this.holdUntilExit(job);
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
