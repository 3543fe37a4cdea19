// The per-organization queue caps under concurrency, on the real embedded store (SQLite) and a
// real spool directory: requests racing for the last place of an organization's queue, the place
// given back when an evaluation leaves the queue, and a crash between reserving it and storing
// the evaluation.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { InProcessBus } from "@verdict/bus";
import { AppError, createLogger, newId } from "@verdict/kit";
import { Outbox } from "@verdict/outbox";
import { SqliteStore } from "@verdict/store";
import type { EvaluationDeps, EvaluationLimits } from "../deps.js";
import { JobFiles } from "../jobFiles.js";
import { DEFAULT_LIMITS } from "../main.js";
import { EvaluationRepo, type EvaluationRecord, type QueueLedger } from "../repo.js";
import { pendingEvaluation } from "../../test/fakes.js";
import { ManualClock } from "../../test/harness.js";
import { deleteEvaluation } from "./deleteEvaluation.js";
import { failEvaluation } from "./failEvaluation.js";
import { completed, finishPending } from "./finishEvaluation.js";
import { checkQueueRoom, queueEvaluation } from "./queueEvaluation.js";

const logger = createLogger("queue-cap-test", "silent");

interface World {
  deps: EvaluationDeps;
  store: SqliteStore;
  clock: ManualClock;
  spool: string;
  dir: string;
}

async function world(limits: Partial<EvaluationLimits>): Promise<World> {
  const dir = mkdtempSync(join(tmpdir(), "verdict-queuecap-"));
  const spool = join(dir, "spool");
  const store = new SqliteStore(":memory:");
  const bus = new InProcessBus(logger);
  const outbox = new Outbox({ bus, logger });
  const repo = new EvaluationRepo(store, outbox);
  await repo.init();
  const jobs = new JobFiles(repo, spool);
  await jobs.init();
  const clock = new ManualClock();
  const deps = {
    repo,
    jobs,
    bus,
    outbox,
    clock,
    logger,
    limits: { ...DEFAULT_LIMITS, ...limits },
  } as unknown as EvaluationDeps;
  return { deps, store, clock, spool, dir };
}

let w: World;
afterEach(async () => {
  await w.deps.outbox.stop();
  await w.store.close();
  rmSync(w.dir, { recursive: true, force: true });
});

function pendingOf(w: World, organizationId: string): EvaluationRecord {
  const at = w.clock.now();
  return pendingEvaluation({
    id: newId("eval", at.getTime()),
    organization_id: organizationId,
    created_at: at.toISOString(),
  });
}

/** A change of three files holding `size` bytes each. */
const change = (size: number) =>
  Array.from({ length: 3 }, (_, i) => ({
    path: `src/f${i}.ts`,
    content: Buffer.from(`${"x".repeat(size - 1)}\n`),
    status: "modified",
  }));

/** Queues one change; the evaluation queued, or the error it was refused with. */
const queue = (w: World, organizationId: string, size = 100) =>
  queueEvaluation(w.deps, { pending: pendingOf(w, organizationId), files: change(size) }).then(
    (e) => e,
    (err: unknown) => err,
  );

const queuedNow = (w: World, organizationId: string) => w.deps.repo.queued(organizationId);

/** The evaluations holding a place in the organization's queue ledger, as stored. */
const reservedIn = async (w: World, organizationId: string) =>
  (
    (await w.store.collection<QueueLedger>("evaluation_queue_ledgers").findOne({ id: organizationId }))?.reservations ??
    []
  ).map((r) => r.evaluation_id);
const isRecord = (x: unknown): x is EvaluationRecord => !(x instanceof Error);

/** The spooled files: those of the evaluations given, and nothing else. */
function expectSpoolHolds(w: World, evaluations: EvaluationRecord[]) {
  expect(readdirSync(w.spool).sort()).toEqual(evaluations.flatMap((e) => [0, 1, 2].map((i) => `${e.id}.${i}`)).sort());
}

describe("queueEvaluation racing for an organization's last place", () => {
  it("lets exactly the cap's count in when twelve requests arrive at once; the rest answer 429 and leave no files", async () => {
    w = await world({ maxQueuedPerOrganization: 3 });
    const outcomes = await Promise.all(Array.from({ length: 12 }, () => queue(w, "org_race")));
    const queued = outcomes.filter(isRecord);
    const refused = outcomes.filter((o) => !isRecord(o));
    expect(queued).toHaveLength(3);
    expect(refused).toHaveLength(9);
    for (const err of refused) {
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({
        kind: "rate_limited",
        code: "RATE_LIMIT_EXCEEDED",
        message: "At most 3 evaluations of an organization wait in the queue at once; retry when one has finished",
        details: { limit: 3, window: "queued", retry_after: 5 },
      });
    }
    expect(await queuedNow(w, "org_race")).toEqual({ count: 3, bytes: 900 });
    expectSpoolHolds(w, queued);
    for (const e of queued) expect(await w.deps.repo.jobFilesOf(e.id)).toHaveLength(3);
  });

  it("lets in only what fits the bytes when requests arrive at once", async () => {
    // Room for two changes of 300 bytes, by bytes; plenty by count.
    w = await world({ maxQueuedPerOrganization: 100, maxQueuedBytesPerOrganization: 650 });
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => queue(w, "org_bytes")));
    const queued = outcomes.filter(isRecord);
    expect(queued).toHaveLength(2);
    for (const err of outcomes.filter((o) => !isRecord(o)))
      expect(err).toMatchObject({
        code: "RATE_LIMIT_EXCEEDED",
        message:
          "The organization's queued evaluations hold 600 bytes; with this one they would pass the 650 bytes an organization may queue; retry when one has finished",
        details: { limit: 650, window: "queued", retry_after: 5 },
      });
    expect(await queuedNow(w, "org_bytes")).toEqual({ count: 2, bytes: 600 });
    expectSpoolHolds(w, queued);
  });

  it("always lets one in when nothing is queued, however large, and only one", async () => {
    w = await world({ maxQueuedBytesPerOrganization: 100 });
    const outcomes = await Promise.all(Array.from({ length: 6 }, () => queue(w, "org_big", 400)));
    expect(outcomes.filter(isRecord)).toHaveLength(1);
    expect(await queuedNow(w, "org_big")).toEqual({ count: 1, bytes: 1200 });
  });

  it("keeps organizations apart: one organization's full queue refuses none of another's", async () => {
    w = await world({ maxQueuedPerOrganization: 1 });
    const outcomes = await Promise.all([
      ...Array.from({ length: 4 }, () => queue(w, "org_a")),
      ...Array.from({ length: 4 }, () => queue(w, "org_b")),
    ]);
    expect(outcomes.slice(0, 4).filter(isRecord)).toHaveLength(1);
    expect(outcomes.slice(4).filter(isRecord)).toHaveLength(1);
  });
});

describe("checkQueueRoom", () => {
  it("answers the same 429 when one more would not fit, and reserves nothing", async () => {
    w = await world({ maxQueuedPerOrganization: 1 });
    await checkQueueRoom(w.deps, { organizationId: "org_check", bytes: 300 });
    await checkQueueRoom(w.deps, { organizationId: "org_check", bytes: 300 });
    expect(isRecord(await queue(w, "org_check"))).toBe(true);
    await expect(checkQueueRoom(w.deps, { organizationId: "org_check", bytes: 300 })).rejects.toMatchObject({
      code: "RATE_LIMIT_EXCEEDED",
      details: { limit: 1, window: "queued", retry_after: 5 },
    });
  });
});

describe("the place in the queue is given back", () => {
  beforeEach(async () => {
    w = await world({ maxQueuedPerOrganization: 1 });
  });

  const full = async (organizationId: string) => {
    const e = await queue(w, organizationId);
    expect(isRecord(e)).toBe(true);
    expect(await queue(w, organizationId)).toMatchObject({ code: "RATE_LIMIT_EXCEEDED" });
    return e as EvaluationRecord;
  };

  it("when the evaluation finishes", async () => {
    const e = await full("org_done");
    const result = {
      passed: true,
      summary: e.summary,
      kept: [],
      suppressions: [],
      policies: ["secrets"],
      scanned_paths: [],
    };
    await finishPending(w.deps, { next: completed(e, result, w.clock.now()) });
    expect(await reservedIn(w, "org_done")).toEqual([]);
    expect(isRecord(await queue(w, "org_done"))).toBe(true);
  });

  it("when it fails (at its deadline, or undeliverable)", async () => {
    const e = await full("org_failed");
    await failEvaluation(w.deps, { evaluation: e, reason: "The evaluation could not be run: broker down" });
    expect(await reservedIn(w, "org_failed")).toEqual([]);
    expect(isRecord(await queue(w, "org_failed"))).toBe(true);
  });

  it("when it is deleted while queued", async () => {
    const e = await full("org_deleted");
    await deleteEvaluation(w.deps, { organizationId: "org_deleted", evaluationId: e.id });
    expect(readdirSync(w.spool)).toEqual([]);
    expect(await reservedIn(w, "org_deleted")).toEqual([]);
    expect(isRecord(await queue(w, "org_deleted"))).toBe(true);
  });

  it("when the process stopped between finishing it and giving the place back", async () => {
    const e = await full("org_crash_after");
    // The finish as a crash leaves it: the evaluation finished, its reservation still held.
    await w.deps.repo.finishPending({ ...e, status: "failed", completed_at: w.clock.now().toISOString() }, []);
    expect(await reservedIn(w, "org_crash_after")).toEqual([e.id]);
    const next = await queue(w, "org_crash_after");
    expect(isRecord(next)).toBe(true);
    expect(await reservedIn(w, "org_crash_after")).toEqual([(next as EvaluationRecord).id]);
  });

  it("after a grace period, when the process stopped between reserving the place and storing the evaluation", async () => {
    // A reservation as a crash leaves it: the place taken, no evaluation ever stored.
    const ghost = newId("eval", w.clock.now().getTime());
    expect(
      await w.deps.repo.reserveQueueRoom(
        "org_crash_before",
        ghost,
        300,
        { maxCount: 1, maxBytes: 1000 },
        w.clock.now(),
      ),
    ).toMatchObject({ reserved: true });
    // Another instance may be between the two writes: within the grace period the place stays taken.
    w.clock.advance(30_000);
    expect(await queue(w, "org_crash_before")).toMatchObject({ code: "RATE_LIMIT_EXCEEDED" });
    w.clock.advance(5 * 60_000);
    const next = await queue(w, "org_crash_before");
    expect(isRecord(next)).toBe(true);
    expect(await reservedIn(w, "org_crash_before")).toEqual([(next as EvaluationRecord).id]);
  });

  it("when storing the evaluation fails: the request's error, no files, and the place free", async () => {
    const pending = pendingOf(w, "org_store_fails");
    // Stored already under its id: the insert fails with a duplicate key after the files were written.
    await w.deps.repo.insert({ ...pending, status: "completed" }, []);
    await expect(queueEvaluation(w.deps, { pending, files: change(100) })).rejects.toThrow(/duplicate key/);
    expect(readdirSync(w.spool)).toEqual([]);
    expect(await reservedIn(w, "org_store_fails")).toEqual([]);
    expect(isRecord(await queue(w, "org_store_fails"))).toBe(true);
  });
});
