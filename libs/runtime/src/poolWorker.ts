// What every FairPool thread runs for a job: it records which thread runs the job (the kernel's
// thread id and the worker's threadId, in the job's slot of a SharedArrayBuffer the pool reads)
// and calls the pool's worker module (loaded once per thread; piscina preloads it when the thread
// starts, so a module that prepares itself still does so before the thread reports ready). The
// pool needs the thread to lower its priority when the job runs past its share, to retire it after
// that job, and to count a thread terminated at a deadline, but still inside a native call, in its
// organization's share until it has exited.
import { pathToFileURL } from "node:url";
import { threadId } from "node:worker_threads";
import { lowerThreadPriority, osThreadId } from "./threadPriority.js";

export interface PoolTask {
  /** The pool's worker module (its default export is called with `input`). */
  module: string;
  input: unknown;
  /** Two Int32 per slot: the worker's threadId and the kernel's thread id. */
  slots: SharedArrayBuffer;
  slot: number;
  /** The niceness every thread of the pool runs at (0: unchanged). */
  niceness: number;
}

type Handler = (input: unknown) => unknown;

const tid = osThreadId();
let handler: Promise<Handler> | undefined;

async function load(module: string): Promise<Handler> {
  const mod = (await import(pathToFileURL(module).href)) as { default?: unknown };
  if (typeof mod.default !== "function") throw new Error(`${module} has no default export to run`);
  return mod.default as Handler;
}

export default async function runPoolTask(task: PoolTask): Promise<unknown> {
  if (task.slot >= 0) {
    const slots = new Int32Array(task.slots);
    Atomics.store(slots, task.slot * 2, threadId);
    Atomics.store(slots, task.slot * 2 + 1, tid);
  }
  if (task.niceness > 0) lowerThreadPriority(tid, task.niceness);
  handler ??= load(task.module);
  return (await handler)(task.input);
}
