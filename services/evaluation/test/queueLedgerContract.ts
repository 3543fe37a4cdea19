// The queue ledger's repository methods under concurrency, against any Store adapter: two
// "instances" (two repositories, each on its own connection to one store) race for an
// organization's last places. Run on the embedded SQLite file (queueLedger.test.ts) and on a
// MongoDB-wire server (queueLedger.mongo.medium.test.ts: FerretDB in the test command).
import { afterEach, describe, expect, it } from "@jest/globals";
import { InProcessBus } from "@verdict/bus";
import { createLogger, newId } from "@verdict/kit";
import { Outbox } from "@verdict/outbox";
import type { Store } from "@verdict/store";
import type { QueueCaps } from "../src/domain/queueRoom.js";
import { EvaluationRepo, type QueueLedger } from "../src/repo.js";
import { pendingEvaluation } from "./fakes.js";

/** Two connections to one fresh store (the second may be the first when the adapter has one per process). */
export type TwoStores = () => Promise<[Store, Store]>;

const logger = createLogger("queue-ledger-test", "silent");

export function queueLedgerContract(name: string, stores: TwoStores): void {
  describe(`the queue ledger on ${name}`, () => {
    let open: Store[] = [];
    afterEach(async () => {
      for (const s of open) await s.close();
      open = [];
    });

    async function instances() {
      const [a, b] = await stores();
      open = a === b ? [a] : [a, b];
      const repo = async (s: Store) => {
        const r = new EvaluationRepo(s, new Outbox({ bus: new InProcessBus(logger), logger }));
        await r.init();
        return r;
      };
      const ra = await repo(a);
      const rb = await repo(b);
      const ledgerOf = async (org: string) =>
        ((await a.collection<QueueLedger>("evaluation_queue_ledgers").findOne({ id: org }))?.reservations ?? [])
          .map((r) => r.evaluation_id)
          .sort();
      return { ra, rb, ledgerOf };
    }

    /** `n` reservations of `bytes` at once, alternating between the two instances; the ids that got a place. */
    async function race(repos: EvaluationRepo[], org: string, n: number, bytes: number, caps: QueueCaps) {
      const ids = Array.from({ length: n }, () => newId("eval"));
      const rooms = await Promise.all(
        ids.map((id, i) => repos[i % repos.length]!.reserveQueueRoom(org, id, bytes, caps, new Date())),
      );
      return ids.filter((_, i) => rooms[i]!.reserved).sort();
    }

    it("gives the last places by count to exactly as many racing requests as fit", async () => {
      const { ra, rb, ledgerOf } = await instances();
      const won = await race([ra, rb], "org_count", 16, 100, { maxCount: 3, maxBytes: 1_000_000 });
      expect(won).toHaveLength(3);
      expect(await ledgerOf("org_count")).toEqual(won);
      expect(await ra.queueUse("org_count", new Date())).toEqual({ count: 3, bytes: 300 });
    });

    it("gives the last places by bytes to exactly as many racing requests as fit", async () => {
      const { ra, rb, ledgerOf } = await instances();
      const won = await race([ra, rb], "org_bytes", 10, 300, { maxCount: 100, maxBytes: 650 });
      expect(won).toHaveLength(2);
      expect(await ledgerOf("org_bytes")).toEqual(won);
      expect(await rb.queueUse("org_bytes", new Date())).toEqual({ count: 2, bytes: 600 });
    });

    it("loses no release and no reservation when both race on one ledger", async () => {
      const { ra, rb, ledgerOf } = await instances();
      const caps = { maxCount: 3, maxBytes: 1_000_000 };
      const first = await race([ra], "org_churn", 3, 10, caps);
      expect(first).toHaveLength(3);
      const fresh = Array.from({ length: 6 }, () => newId("eval"));
      const [, rooms] = await Promise.all([
        Promise.all(first.map((id, i) => [ra, rb][i % 2]!.releaseQueueRoom("org_churn", id))),
        Promise.all(fresh.map((id, i) => [rb, ra][i % 2]!.reserveQueueRoom("org_churn", id, 10, caps, new Date()))),
      ]);
      const won = fresh.filter((_, i) => rooms[i]!.reserved).sort();
      // Every release took effect, every place given is held, and never more than the cap.
      expect(await ledgerOf("org_churn")).toEqual(won);
      expect(won.length).toBeLessThanOrEqual(3);
      // Once the releases are in, the places left are there for the taking.
      const more = await race([ra, rb], "org_churn", 6, 10, caps);
      expect(more).toHaveLength(3 - won.length);
    });

    it("counts a pending evaluation once, and drops the place of one that left the queue", async () => {
      const { ra, rb, ledgerOf } = await instances();
      const caps = { maxCount: 2, maxBytes: 1_000_000 };
      const [id] = await race([ra], "org_stored", 1, 40, caps);
      const stored = pendingEvaluation({ id: id!, organization_id: "org_stored", queued_bytes: 40 });
      await ra.insert(stored, []);
      expect(await rb.queueUse("org_stored", new Date())).toEqual({ count: 1, bytes: 40 });
      // Finished without its place given back (a crash): the next reservation drops it.
      await ra.finishPending({ ...stored, status: "completed", completed_at: new Date().toISOString() }, []);
      const [next] = await race([rb], "org_stored", 1, 40, caps);
      expect(await ledgerOf("org_stored")).toEqual([next]);
    });
  });
}
