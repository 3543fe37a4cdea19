// FairPool with real worker threads: turn order between keys, the share of threads one key may
// hold, deadlines and cancellation of jobs that never yield, and closing.
import { afterEach, describe, expect, it } from "@jest/globals";
import { getPriority } from "node:os";
import { fileURLToPath } from "node:url";
import { FairPool, PoolJobError } from "./pool.js";

type Job = { label: string; ms: number; nativeMs?: number; report?: boolean };
type Report = { label: string; threadId: number; niceness: number };
const filename = fileURLToPath(new URL("./pool.fixture-worker.mjs", import.meta.url));
let pool: FairPool<Job, string> | undefined;
afterEach(async () => pool?.close());

function runAll(p: FairPool<Job, string>, jobs: [string, string, number][], done: string[]) {
  return jobs.map(([key, label, ms]) =>
    p.run(key, { label, ms }, { timeoutMs: 30_000 }).then((l) => void done.push(l)),
  );
}

describe("FairPool", () => {
  it("gives a free thread to the next key in turn, not to the key with the most jobs", async () => {
    pool = new FairPool<Job, string>({ filename, threads: 1 });
    const done: string[] = [];
    await Promise.all(
      runAll(
        pool,
        [
          ["a", "a1", 50],
          ["a", "a2", 50],
          ["a", "a3", 50],
          ["b", "b1", 50],
          ["a", "a4", 50],
          ["b", "b2", 50],
        ],
        done,
      ),
    );
    // a1 takes the thread at once; from then on a and b alternate while both have jobs waiting.
    expect(done).toEqual(["a1", "a2", "b1", "a3", "b2", "a4"]);
  });

  it("keeps a thread for other keys while one key has long jobs queued", async () => {
    pool = new FairPool<Job, string>({ filename, threads: 2 });
    expect(pool.maxThreadsPerKey).toBe(1);
    const done: string[] = [];
    const all = runAll(
      pool,
      [
        ["a", "a1", 1500],
        ["a", "a2", 1500],
        ["b", "b1", 10],
      ],
      done,
    );
    await all[2];
    expect(done).toEqual(["b1"]);
    expect(pool.inFlight("a")).toBe(2);
    await Promise.all(all);
  });

  it("starts another key's job on a spare thread once every running job has held its thread past burstAfterMs", async () => {
    pool = new FairPool<Job, string>({ filename, threads: 1, spareThreads: 1, burstAfterMs: 100 });
    const done: string[] = [];
    const all = runAll(
      pool,
      [
        ["a", "a1", 1500],
        ["a", "a2", 1500],
        ["b", "b1", 10],
      ],
      done,
    );
    await all[2];
    expect(done).toEqual(["b1"]);
    await Promise.all(all);
    // a never takes the spare thread: its second job waited for its first.
    expect(done).toEqual(["b1", "a1", "a2"]);
  });

  it("keeps the other key waiting for a long job without burstAfterMs, spare thread or not", async () => {
    pool = new FairPool<Job, string>({ filename, threads: 1, spareThreads: 1 });
    const done: string[] = [];
    await Promise.all(
      runAll(
        pool,
        [
          ["a", "a1", 600],
          ["b", "b1", 10],
        ],
        done,
      ),
    );
    expect(done).toEqual(["a1", "b1"]);
  });

  it("fails a job past its deadline, stops its thread, and keeps serving", async () => {
    pool = new FairPool<Job, string>({ filename, threads: 1 });
    const late = pool.run("a", { label: "slow", ms: 60_000 }, { timeoutMs: 300 });
    await expect(late).rejects.toMatchObject({ reason: "deadline" });
    await expect(late).rejects.toBeInstanceOf(PoolJobError);
    await expect(pool.run("b", { label: "next", ms: 1 }, { timeoutMs: 10_000 })).resolves.toBe("next");
    expect(pool.inFlight("a")).toBe(0);
  });

  it("cancels a running job and a queued one when their callers abort", async () => {
    pool = new FairPool<Job, string>({ filename, threads: 1 });
    const running = new AbortController();
    const queued = new AbortController();
    const first = pool.run("a", { label: "first", ms: 60_000 }, { timeoutMs: 60_000, signal: running.signal });
    const second = pool.run("a", { label: "second", ms: 60_000 }, { timeoutMs: 60_000, signal: queued.signal });
    expect(pool.queued).toBe(1);
    queued.abort();
    await expect(second).rejects.toMatchObject({ reason: "cancelled" });
    expect(pool.queued).toBe(0);
    running.abort();
    await expect(first).rejects.toMatchObject({ reason: "cancelled" });
    await expect(pool.run("a", { label: "after", ms: 1 }, { timeoutMs: 10_000 })).resolves.toBe("after");
  });

  it("fails running and queued jobs when closed, and refuses new ones", async () => {
    const p = new FairPool<Job, string>({ filename, threads: 1 });
    const running = p.run("a", { label: "r", ms: 60_000 }, { timeoutMs: 60_000 }).catch((err: unknown) => err);
    const queued = p.run("b", { label: "q", ms: 1 }, { timeoutMs: 60_000 }).catch((err: unknown) => err);
    await new Promise((r) => setTimeout(r, 100));
    await p.close();
    expect(await running).toMatchObject({ reason: "closed" });
    expect(await queued).toMatchObject({ reason: "closed" });
    await expect(p.run("a", { label: "x", ms: 1 }, { timeoutMs: 1000 })).rejects.toMatchObject({ reason: "closed" });
  });

  it("counts a thread terminated inside a native call in its key's share until it has exited", async () => {
    pool = new FairPool<Job, string>({ filename, threads: 1, spareThreads: 1, countTerminatedThreads: true });
    await pool.run("a", { label: "a0", ms: 1 }, { timeoutMs: 10_000 }); // the threads have started
    const started = Date.now();
    // a1 blocks 1.5 s in a native call: terminating its thread at the 300 ms deadline cannot stop it.
    const a1 = pool.run("a", { label: "a1", ms: 0, nativeMs: 1500 }, { timeoutMs: 300 });
    await expect(a1).rejects.toMatchObject({ reason: "deadline" });
    expect(pool.held("a")).toBe(1);
    const done: string[] = [];
    const a2 = pool.run("a", { label: "a2", ms: 1 }, { timeoutMs: 10_000 }).then((l) => {
      done.push(l);
      return Date.now() - started;
    });
    await pool.run("b", { label: "b1", ms: 1 }, { timeoutMs: 10_000 }).then((l) => done.push(l));
    // b runs at once; a's next job waits for the thread a still burns.
    expect(done).toEqual(["b1"]);
    expect(await a2).toBeGreaterThanOrEqual(1400);
    expect(done).toEqual(["b1", "a2"]);
    // Released when that thread exited: a's jobs run again without waiting.
    expect(pool.held("a")).toBe(0);
    await expect(pool.run("a", { label: "a3", ms: 1 }, { timeoutMs: 1000 })).resolves.toBe("a3");
  });

  it("lowers the priority of a job's thread past lowPriorityAfterMs while a key with much shorter jobs has work, and retires that thread", async () => {
    const base = getPriority();
    const reports = new FairPool<Job, Report>({
      filename,
      threads: 1,
      spareThreads: 1,
      burstAfterMs: 100,
      lowPriorityAfterMs: 100,
    });
    try {
      // The threads have started (a job reaches a thread still starting later than 100 ms here).
      await Promise.all([0, 1].map(() => reports.run("c", { label: "c", ms: 300 }, { timeoutMs: 10_000 })));
      // b's jobs are known to be short; a key with no jobs known yet is not taken for a lighter one.
      await reports.run("b", { label: "b0", ms: 10 }, { timeoutMs: 10_000 });
      const a1 = reports.run("a", { label: "a1", ms: 600, report: true }, { timeoutMs: 10_000 });
      const b1 = reports.run("b", { label: "b1", ms: 10, report: true }, { timeoutMs: 10_000 });
      const [ra1, rb1] = await Promise.all([a1, b1]);
      expect(ra1.niceness).toBe(Math.max(base, 10));
      expect(rb1.niceness).toBe(base);
      // a1's thread was retired: the next jobs run at the normal priority, on other threads.
      const next = await Promise.all([
        reports.run("a", { label: "a2", ms: 300, report: true }, { timeoutMs: 10_000 }),
        reports.run("b", { label: "b2", ms: 300, report: true }, { timeoutMs: 10_000 }),
      ]);
      for (const r of next) expect(r.threadId).not.toBe(ra1.threadId);
      // b's jobs run much shorter than a's: its long job keeps its priority while a waits.
      const [rb3] = await Promise.all([
        reports.run("b", { label: "b3", ms: 400, report: true }, { timeoutMs: 10_000 }),
        reports.run("a", { label: "a4", ms: 10, report: true }, { timeoutMs: 10_000 }),
      ]);
      expect(rb3.niceness).toBe(base);
      // Jobs shorter than lowPriorityAfterMs... and a long job with no other key waiting: unchanged.
      const alone = await reports.run("a", { label: "a3", ms: 400, report: true }, { timeoutMs: 10_000 });
      expect(alone.niceness).toBe(base);
    } finally {
      await reports.close();
    }
  });

  it("runs every thread of a pool with a niceness at that niceness", async () => {
    const base = getPriority();
    const nice = new FairPool<Job, Report>({ filename, threads: 1, niceness: 10 });
    const plain = new FairPool<Job, Report>({ filename, threads: 1 });
    try {
      expect((await nice.run("a", { label: "n", ms: 1, report: true }, { timeoutMs: 10_000 })).niceness).toBe(
        Math.max(base, 10),
      );
      expect((await plain.run("a", { label: "p", ms: 1, report: true }, { timeoutMs: 10_000 })).niceness).toBe(base);
    } finally {
      await Promise.all([nice.close(), plain.close()]);
    }
  });
});
