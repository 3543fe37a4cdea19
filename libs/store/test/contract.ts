// The Store port's contract. Every adapter (embedded SQLite, MongoDB/FerretDB) runs this same
// suite, so callers can rely on identical behaviour.
import { describe, expect, it, beforeEach, afterEach } from "@jest/globals";
import { DuplicateKeyError, type Store } from "../src/port.js";

interface Item {
  id: string;
  org_id: string;
  n: number;
  tag: string | null;
  flag: boolean;
  nested?: { a: string };
  version: number;
}

export function storeContract(adapter: string, makeStore: () => Promise<Store>): void {
  describe(`Store contract: ${adapter}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close();
    });

    const seed = async () => {
      const c = store.collection<Item>("contract_items");
      await c.ensureIndexes([{ name: "org_n", fields: { org_id: 1, n: -1 } }]);
      for (let i = 1; i <= 5; i++) {
        await c.insertOne({
          id: `it_${i}`,
          org_id: i % 2 ? "org_a" : "org_b",
          n: i,
          tag: i === 3 ? null : `t${i}`,
          flag: i > 3,
          version: 1,
        });
      }
      return c;
    };

    it("inserts and finds by id and by fields", async () => {
      const c = await seed();
      expect(await c.findOne({ id: "it_2" })).toMatchObject({ id: "it_2", org_id: "org_b", n: 2 });
      expect(await c.findOne({ id: "missing" })).toBeNull();
      expect((await c.find({ org_id: "org_a" })).map((d) => d.id).sort()).toEqual(["it_1", "it_3", "it_5"]);
    });

    it("rejects a duplicate id with DuplicateKeyError", async () => {
      const c = await seed();
      await expect(
        c.insertOne({ id: "it_1", org_id: "x", n: 0, tag: null, flag: false, version: 1 }),
      ).rejects.toBeInstanceOf(DuplicateKeyError);
    });

    it("enforces unique indexes", async () => {
      const c = store.collection<Item>("contract_unique");
      await c.ensureIndexes([{ name: "org_tag", fields: { org_id: 1, tag: 1 }, unique: true }]);
      await c.ensureIndexes([{ name: "org_tag", fields: { org_id: 1, tag: 1 }, unique: true }]);
      await c.insertOne({ id: "u1", org_id: "o", n: 1, tag: "same", flag: false, version: 1 });
      await expect(
        c.insertOne({ id: "u2", org_id: "o", n: 2, tag: "same", flag: false, version: 1 }),
      ).rejects.toBeInstanceOf(DuplicateKeyError);
      await c.insertOne({ id: "u3", org_id: "other", n: 3, tag: "same", flag: false, version: 1 });
    });

    it("takes a declared index on the id alone as the primary key's (ids are already unique)", async () => {
      const c = store.collection<Item>("contract_id_index");
      await c.ensureIndexes([{ name: "by_id", fields: { id: 1 }, unique: true }]);
      await c.ensureIndexes([{ name: "by_id", fields: { id: 1 }, unique: true }]);
      await c.insertOne({ id: "i1", org_id: "o", n: 1, tag: null, flag: false, version: 1 });
      await expect(
        c.insertOne({ id: "i1", org_id: "o", n: 2, tag: null, flag: false, version: 1 }),
      ).rejects.toBeInstanceOf(DuplicateKeyError);
    });

    it("filters with operators, booleans and nulls", async () => {
      const c = await seed();
      const ids = async (f: Parameters<typeof c.find>[0]) => (await c.find(f, { sort: { n: 1 } })).map((d) => d.n);
      expect(await ids({ n: { $gt: 2 } })).toEqual([3, 4, 5]);
      expect(await ids({ n: { $gte: 2, $lt: 4 } })).toEqual([2, 3]);
      expect(await ids({ n: { $lte: 1 } })).toEqual([1]);
      expect(await ids({ n: { $in: [1, 5, 9] } })).toEqual([1, 5]);
      expect(await ids({ n: { $in: [] } })).toEqual([]);
      expect(await ids({ n: { $nin: [1, 5, 9] } })).toEqual([2, 3, 4]);
      expect(await ids({ n: { $nin: [] } })).toEqual([1, 2, 3, 4, 5]);
      expect(await ids({ flag: true })).toEqual([4, 5]);
      expect(await ids({ flag: false })).toEqual([1, 2, 3]);
      expect(await ids({ tag: null })).toEqual([3]);
      expect(await ids({ tag: { $ne: null } })).toEqual([1, 2, 4, 5]);
      expect(await ids({ tag: { $ne: "t1" } })).toEqual([2, 3, 4, 5]);
      expect(await ids({ nested: { $exists: false } })).toEqual([1, 2, 3, 4, 5]);
      expect(await ids({ id: { $lt: "it_3" } })).toEqual([1, 2]);
    });

    it("sorts, limits and counts", async () => {
      const c = await seed();
      expect((await c.find({}, { sort: { n: -1 }, limit: 2 })).map((d) => d.n)).toEqual([5, 4]);
      expect((await c.find({ org_id: "org_a" }, { sort: { id: 1 } })).map((d) => d.id)).toEqual([
        "it_1",
        "it_3",
        "it_5",
      ]);
      expect(await c.count({ org_id: "org_b" })).toBe(2);
      expect(await c.count({})).toBe(5);
    });

    it("skips after sorting, with or without a limit (offset paging)", async () => {
      const c = await seed();
      expect((await c.find({}, { sort: { n: 1 }, skip: 1, limit: 2 })).map((d) => d.n)).toEqual([2, 3]);
      expect((await c.find({}, { sort: { n: 1 }, skip: 3 })).map((d) => d.n)).toEqual([4, 5]);
      expect((await c.find({ org_id: "org_a" }, { sort: { n: -1 }, skip: 1, limit: 5 })).map((d) => d.n)).toEqual([
        3, 1,
      ]);
      expect(await c.find({}, { sort: { n: 1 }, skip: 5, limit: 2 })).toEqual([]);
      expect((await c.find({}, { sort: { n: 1 }, skip: 0, limit: 1 })).map((d) => d.n)).toEqual([1]);
    });

    it("updates one document atomically, with optimistic concurrency through the filter", async () => {
      const c = await seed();
      const updated = await c.updateOne({ id: "it_1", version: 1 }, { tag: "changed", version: 2, nested: { a: "x" } });
      expect(updated).toMatchObject({ id: "it_1", tag: "changed", version: 2, nested: { a: "x" } });
      expect(await c.updateOne({ id: "it_1", version: 1 }, { tag: "lost", version: 2 })).toBeNull();
      expect((await c.findOne({ id: "it_1" }))?.tag).toBe("changed");
      const unset = await c.updateOne({ id: "it_1" }, {}, ["nested"]);
      expect(unset).not.toHaveProperty("nested");
      expect(await c.updateOne({ id: "none" }, { n: 1 })).toBeNull();
    });

    it("lets exactly one of many racing writers win a version", async () => {
      const c = await seed();
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => c.updateOne({ id: "it_2", version: 1 }, { tag: `writer${i}`, version: 2 })),
      );
      const winners = results.filter((r) => r !== null);
      expect(winners).toHaveLength(1);
      expect(await c.findOne({ id: "it_2" })).toMatchObject({ version: 2, tag: winners[0]!.tag });
    });

    it("pages with a cursor on an indexed key, ties broken by id", async () => {
      const c = store.collection<Item>("contract_pages");
      await c.ensureIndexes([
        { name: "org_id_desc", fields: { org_id: 1, id: -1 } },
        { name: "org_n_id", fields: { org_id: 1, n: 1, id: 1 } },
      ]);
      await c.ensureIndexes([{ name: "org_id_desc", fields: { org_id: 1, id: -1 } }]);
      for (let i = 1; i <= 7; i++) {
        await c.insertOne({
          id: `p_${String(i).padStart(2, "0")}`,
          org_id: "o",
          n: i % 3,
          tag: null,
          flag: false,
          version: 1,
        });
      }
      await c.insertOne({ id: "p_99", org_id: "other", n: 0, tag: null, flag: false, version: 1 });
      const seen: string[] = [];
      let cursor: string | undefined;
      for (;;) {
        const page = await c.find(
          { org_id: "o", ...(cursor ? { id: { $lt: cursor } } : {}) },
          { sort: { id: -1 }, limit: 3 },
        );
        seen.push(...page.map((d) => d.id));
        if (page.length < 3) break;
        cursor = page[page.length - 1]!.id;
      }
      expect(seen).toEqual(["p_07", "p_06", "p_05", "p_04", "p_03", "p_02", "p_01"]);
      const byN = (await c.find({ org_id: "o" }, { sort: { n: -1 } })).map((d) => `${d.n}:${d.id}`);
      expect(byN).toEqual(["2:p_05", "2:p_02", "1:p_07", "1:p_04", "1:p_01", "0:p_06", "0:p_03"]);
    });

    it("treats a null field as absent for $exists, and null as matching missing fields", async () => {
      const c = await seed();
      const ns = async (f: Parameters<typeof c.find>[0]) => (await c.find(f, { sort: { n: 1 } })).map((d) => d.n);
      expect(await ns({ tag: { $exists: true } })).toEqual([1, 2, 4, 5]);
      expect(await ns({ tag: { $exists: false } })).toEqual([3]);
      expect(await ns({ nested: null })).toEqual([1, 2, 3, 4, 5]);
      expect(await ns({ tag: { $in: [null, "t1"] } })).toEqual([1, 3]);
      expect(await ns({ tag: { $nin: ["t1"] } })).toEqual([2, 3, 4, 5]);
      expect(await ns({ tag: { $nin: [null, "t1"] } })).toEqual([2, 4, 5]);
      expect(await ns({ "nested.a": { $exists: false }, n: { $gte: 4 } })).toEqual([4, 5]);
    });

    it("returns documents as inserted, with nested objects and no storage fields", async () => {
      const c = await seed();
      const doc: Item = {
        id: "it_9",
        org_id: "org_z",
        n: 9.5,
        tag: "x",
        flag: true,
        nested: { a: "deep" },
        version: 3,
      };
      await c.insertOne(doc);
      expect(await c.findOne({ "nested.a": "deep" })).toEqual(doc);
      expect(await c.updateOne({ id: "it_9" }, { "nested.a": "deeper" } as Partial<Item>)).toEqual({
        ...doc,
        nested: { a: "deeper" },
      });
    });

    it("reports a unique index violation on update as DuplicateKeyError", async () => {
      const c = store.collection<Item>("contract_unique_update");
      await c.ensureIndexes([{ name: "org_tag", fields: { org_id: 1, tag: 1 }, unique: true }]);
      await c.insertOne({ id: "u1", org_id: "o", n: 1, tag: "a", flag: false, version: 1 });
      await c.insertOne({ id: "u2", org_id: "o", n: 2, tag: "b", flag: false, version: 1 });
      await expect(c.updateOne({ id: "u2" }, { tag: "a" })).rejects.toBeInstanceOf(DuplicateKeyError);
      expect((await c.findOne({ id: "u2" }))?.tag).toBe("b");
    });

    it("deletes one and many", async () => {
      const c = await seed();
      expect(await c.deleteOne({ id: "it_1" })).toBe(true);
      expect(await c.deleteOne({ id: "it_1" })).toBe(false);
      expect(await c.deleteMany({ org_id: "org_b" })).toBe(2);
      expect(await c.count({})).toBe(2);
    });

    it("groups matching documents: counts and sums per key, unwinding an array", async () => {
      const c = store.collection<Item & { day: string; hits?: { p: string; w: number }[] }>("contract_groups");
      await c.ensureIndexes([{ name: "org_day", fields: { org_id: 1, day: 1 } }]);
      const rows = [
        {
          day: "d1",
          flag: true,
          n: 2,
          hits: [
            { p: "x", w: 1 },
            { p: "y", w: 2 },
          ],
        },
        { day: "d1", flag: false, n: 3, hits: [{ p: "x", w: 4 }] },
        { day: "d1", flag: false, n: 5, hits: [] },
        { day: "d2", flag: true, n: 7 },
      ];
      for (const [i, r] of rows.entries())
        await c.insertOne({ id: `g_${i}`, org_id: "org_a", tag: null, version: 1, ...r });
      await c.insertOne({ id: "g_other", org_id: "org_b", tag: null, version: 1, day: "d1", flag: true, n: 100 });
      const byKey = (list: { key: Record<string, unknown>; count: number; sums: Record<string, number> }[]) =>
        list.map((r) => [r.key, r.count, r.sums]).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

      const perDay = await c.group({ org_id: "org_a" }, { by: { day: "day", passed: "flag" }, sum: { total: "n" } });
      expect(byKey(perDay)).toEqual(
        byKey([
          { key: { day: "d1", passed: true }, count: 1, sums: { total: 2 } },
          { key: { day: "d1", passed: false }, count: 2, sums: { total: 8 } },
          { key: { day: "d2", passed: true }, count: 1, sums: { total: 7 } },
        ]),
      );
      // Booleans come back as booleans, not 1/0.
      expect(perDay.every((r) => typeof r.key.passed === "boolean")).toBe(true);

      const perHit = await c.group(
        { org_id: "org_a", day: "d1" },
        { by: { policy: "hits.p" }, unwind: "hits", sum: { w: "hits.w" } },
      );
      expect(byKey(perHit)).toEqual(
        byKey([
          { key: { policy: "x" }, count: 2, sums: { w: 5 } },
          { key: { policy: "y" }, count: 1, sums: { w: 2 } },
        ]),
      );
      expect(await c.group({ org_id: "org_none" }, { by: { day: "day" } })).toEqual([]);
      const missing = await c.group({ org_id: "org_a", day: "d2" }, { by: { absent: "nested.a" } });
      expect(missing).toEqual([{ key: { absent: null }, count: 1, sums: {} }]);
      await expect(c.group({ org_id: "org_a" }, { by: { bad: "x'); DROP TABLE c; --" } })).rejects.toThrow(
        /invalid field/,
      );
    });

    it("keeps collections apart", async () => {
      await seed();
      expect(await store.collection<Item>("contract_other").count({})).toBe(0);
    });

    it("rejects unsafe field names instead of building SQL or queries from them", async () => {
      const c = await seed();
      await expect(c.find({ "n') OR 1=1 --": 1 })).rejects.toThrow(/invalid field name/);
    });
  });
}
