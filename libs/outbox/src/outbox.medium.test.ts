// The outbox against the real embedded store and the in-process bus, and against a real
// MongoDB-wire server too when VERDICT_TEST_MONGODB_URI is set (the test command starts FerretDB).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { InProcessBus, type CloudEvent } from "@verdict/bus";
import { createLogger } from "@verdict/kit";
import { randomBytes } from "node:crypto";
import { collectionDef, DuplicateKeyError, MongoStore, SqliteStore, type Collection, type Store } from "@verdict/store";
import { Outbox, type OutboxFields } from "./outbox.js";
import { OutboxRepository } from "./repository.js";

interface Thing {
  id: string;
  n: number;
  status?: string;
}

/** A repository of things: the events of their changes go through the outbox; its notes' do not. */
const THING_COLLECTIONS = {
  things: collectionDef<Thing>("things", [{ name: "n", fields: { n: 1 }, unique: true }]),
  notes: collectionDef<{ id: string }>("notes"),
};

class ThingRepo extends OutboxRepository<typeof THING_COLLECTIONS> {
  constructor(store: Store, outbox: Outbox) {
    super(store, outbox, THING_COLLECTIONS, ["things"]);
  }
}

const logger = createLogger("outbox-test", "silent");
const dir = mkdtempSync(join(tmpdir(), "verdict-outbox-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let store: Store;
let things: Collection<Thing>;
let bus: InProcessBus;
let seen: CloudEvent<{ n: number }>[];
let file = 0;

const mongoUri = process.env.VERDICT_TEST_MONGODB_URI;
const run = randomBytes(4).toString("hex");
const stores: [string, () => Promise<Store>][] = [
  ["embedded SQLite", async () => new SqliteStore(join(dir, `outbox-${++file}.db`))],
];
if (mongoUri)
  stores.push([
    "MongoDB wire",
    async () => new MongoStore({ uri: mongoUri, database: `verdict_outbox_${run}_${++file}` }).connect(),
  ]);

describe.each(stores)("Outbox on %s", (_name, open) => {
  beforeEach(async () => {
    store = await open();
    things = store.collection<Thing>("things");
    bus = new InProcessBus(logger, 5);
    seen = [];
    await bus.subscribe<{ n: number }>("verdict.test.changed", "observer", async (e) => {
      seen.push(e);
    });
  });

  afterEach(async () => {
    await bus.close();
    await store.close();
  });

  /** A process that wrote its state and died before publishing: its bus is gone. */
  async function crashedWriter(): Promise<Outbox> {
    const deadBus = new InProcessBus(logger, 5);
    await deadBus.close();
    const outbox = new Outbox({ bus: deadBus, logger, flushWaitMs: 100 });
    await outbox.register(things);
    return outbox;
  }

  async function settle(): Promise<void> {
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    await bus.close();
  }

  const raw = async (id: string) => (await store.collection<Thing & OutboxFields>("things").findOne({ id }))!;

  describe("Outbox", () => {
    it("publishes an inserted document's events and keeps nothing pending", async () => {
      const outbox = new Outbox({ bus, logger });
      await outbox.register(things);
      const event = outbox.event("verdict.test.changed", { source: "/test", subject: "t1", data: { n: 1 } });
      await outbox.insert(things, { id: "t1", n: 1 }, [event]);
      await outbox.stop();
      await settle();
      expect(seen.map((e) => [e.id, e.data.n, e.subject])).toEqual([[event.id, 1, "t1"]]);
      const doc = await raw("t1");
      expect(doc._outbox).toBeUndefined();
      expect(doc._outbox_since).toBeUndefined();
      expect(doc.n).toBe(1);
    });

    it("delivers the event of a write whose process crashed before publishing, once a relay runs", async () => {
      const writer = await crashedWriter();
      const event = writer.event("verdict.test.changed", { source: "/test", data: { n: 7 } });
      await writer.insert(things, { id: "t1", n: 7 }, [event]);
      await writer.update(things, { id: "t1" }, { n: 8 }, [
        writer.event("verdict.test.changed", { source: "/test", data: { n: 8 } }),
      ]);
      await writer.stop();
      expect((await raw("t1"))._outbox).toHaveLength(2);
      expect(seen).toHaveLength(0);

      // Later, another process (or the restarted one) runs the relay.
      const relay = new Outbox({ bus, logger });
      await relay.register(things);
      expect(await relay.sweep(0)).toBe(2);
      await relay.stop();
      await settle();
      expect(seen.map((e) => e.data.n)).toEqual([7, 8]);
      expect(seen[0]!.id).toBe(event.id);
      expect((await raw("t1"))._outbox).toBeUndefined();
    });

    it("a repository's init creates its declared indexes and has the outbox relay its published collections", async () => {
      const writer = await crashedWriter();
      await writer.insert(things, { id: "t1", n: 3 }, [
        writer.event("verdict.test.changed", { source: "/test", data: { n: 3 } }),
      ]);
      await writer.stop();

      const relay = new Outbox({ bus, logger });
      const repo = new ThingRepo(store, relay);
      await repo.init();
      // The declared unique index is there: a second thing with the same n is refused.
      await expect(repo.c.things.insertOne({ id: "t2", n: 3 })).rejects.toBeInstanceOf(DuplicateKeyError);
      // The published collection is registered: what the crashed writer left is relayed.
      expect(await relay.sweep(0)).toBe(1);
      await relay.stop();
      await settle();
      expect(seen.map((e) => e.data.n)).toEqual([3]);
    });

    it("leaves young events to their writer unless asked for all of them", async () => {
      const writer = await crashedWriter();
      await writer.insert(things, { id: "t1", n: 1 }, [
        writer.event("verdict.test.changed", { source: "/test", data: { n: 1 } }),
      ]);
      await writer.stop();
      const relay = new Outbox({ bus, logger, graceMs: 60_000 });
      await relay.register(things);
      expect(await relay.sweep()).toBe(0);
      expect(await relay.sweep(0)).toBe(1);
      await relay.stop();
    });

    it("loses no event when many writers append to one document while the relay publishes", async () => {
      const outbox = new Outbox({ bus, logger, flushWaitMs: 0 });
      await outbox.register(things);
      await outbox.insert(things, { id: "t1", n: 0 }, []);
      const writes = Array.from({ length: 30 }, (_, i) =>
        outbox.update(things, { id: "t1" }, { n: i + 1 }, [
          outbox.event("verdict.test.changed", { source: "/test", data: { n: i + 1 } }),
        ]),
      );
      const sweeps = Array.from({ length: 5 }, () => outbox.sweep(0));
      await Promise.all([...writes, ...sweeps]);
      await outbox.sweep(0);
      await outbox.stop();
      await settle();
      const ids = new Set(seen.map((e) => e.id));
      expect(ids.size).toBe(30);
      expect(new Set(seen.map((e) => e.data.n)).size).toBe(30);
      expect((await raw("t1"))._outbox).toBeUndefined();
    });

    it("stores and publishes data whose keys hold '.' or a leading '$' (FerretDB refuses them in a document)", async () => {
      const outbox = new Outbox({ bus, logger });
      await outbox.register(things);
      const data = { n: 1, changes: { "settings.require_mfa": { before: false, after: true }, $set: "x" } };
      await outbox.insert(things, { id: "t1", n: 0 }, []);
      await outbox.update(things, { id: "t1" }, { n: 1 }, [
        outbox.event("verdict.test.changed", { source: "/test", data }),
      ]);
      await outbox.stop();
      await settle();
      expect(seen.map((e) => e.data)).toEqual([data]);
    });

    it("updates conditionally, like updateOne: no match, no change and no event", async () => {
      const outbox = new Outbox({ bus, logger });
      await outbox.register(things);
      await outbox.insert(things, { id: "t1", n: 1, status: "done" }, []);
      const updated = await outbox.update(things, { id: "t1", status: "pending" }, { n: 2 }, [
        outbox.event("verdict.test.changed", { source: "/test", data: { n: 2 } }),
      ]);
      expect(updated).toBeNull();
      const ok = await outbox.update(things, { id: "t1", status: "done" }, { n: 3 }, [
        outbox.event("verdict.test.changed", { source: "/test", data: { n: 3 } }),
      ]);
      expect(ok).toEqual({ id: "t1", n: 3, status: "done" });
      await outbox.stop();
      await settle();
      expect(seen.map((e) => e.data.n)).toEqual([3]);
    });

    it("deletes with an event; after a crash the relay publishes it and finishes the delete", async () => {
      const outbox = new Outbox({ bus, logger });
      await outbox.register(things);
      await outbox.insert(things, { id: "t1", n: 1 }, []);
      await outbox.insert(things, { id: "t2", n: 2 }, []);
      expect(
        await outbox.remove(things, { id: "t1" }, [
          outbox.event("verdict.test.changed", { source: "/test", data: { n: -1 } }),
        ]),
      ).toBe(true);
      expect(await things.findOne({ id: "t1" })).toBeNull();
      expect(
        await outbox.remove(things, { id: "nope" }, [
          outbox.event("verdict.test.changed", { source: "/test", data: { n: 0 } }),
        ]),
      ).toBe(false);

      const writer = await crashedWriter();
      expect(
        await writer.remove(things, { id: "t2" }, [
          writer.event("verdict.test.changed", { source: "/test", data: { n: -2 } }),
        ]),
      ).toBe(true);
      await writer.stop();
      expect((await raw("t2"))._outbox_delete).toBe(true);
      expect(
        await writer.remove(things, { id: "t2" }, [
          writer.event("verdict.test.changed", { source: "/test", data: { n: -3 } }),
        ]),
      ).toBe(false);
      expect(await outbox.sweep(0)).toBe(1);
      expect(await things.findOne({ id: "t2" })).toBeNull();
      await outbox.stop();
      await settle();
      expect(seen.map((e) => e.data.n)).toEqual([-1, -2]);
    });

    it("sweeps on its own once started", async () => {
      const writer = await crashedWriter();
      await writer.insert(things, { id: "t1", n: 5 }, [
        writer.event("verdict.test.changed", { source: "/test", data: { n: 5 } }),
      ]);
      await writer.stop();
      const relay = new Outbox({ bus, logger, sweepIntervalMs: 20, graceMs: 0 });
      await relay.register(things);
      relay.start();
      for (let i = 0; i < 200 && seen.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      await relay.stop();
      expect(seen.map((e) => e.data.n)).toEqual([5]);
    });
  });
});
