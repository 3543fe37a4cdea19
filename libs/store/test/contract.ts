// The Store port's contract. Every adapter (embedded SQLite now, MongoDB later) runs this same
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
        await c.insertOne({ id: `it_${i}`, org_id: i % 2 ? "org_a" : "org_b", n: i, tag: i === 3 ? null : `t${i}`, flag: i > 3, version: 1 });
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
      await expect(c.insertOne({ id: "it_1", org_id: "x", n: 0, tag: null, flag: false, version: 1 })).rejects.toBeInstanceOf(DuplicateKeyError);
    });

    it("enforces unique indexes", async () => {
      const c = store.collection<Item>("contract_unique");
      await c.ensureIndexes([{ name: "org_tag", fields: { org_id: 1, tag: 1 }, unique: true }]);
      await c.ensureIndexes([{ name: "org_tag", fields: { org_id: 1, tag: 1 }, unique: true }]);
      await c.insertOne({ id: "u1", org_id: "o", n: 1, tag: "same", flag: false, version: 1 });
      await expect(c.insertOne({ id: "u2", org_id: "o", n: 2, tag: "same", flag: false, version: 1 })).rejects.toBeInstanceOf(DuplicateKeyError);
      await c.insertOne({ id: "u3", org_id: "other", n: 3, tag: "same", flag: false, version: 1 });
    });

    it("filters with operators, booleans and nulls", async () => {
      const c = await seed();
      const ids = async (f: Parameters<typeof c.find>[0]) => (await c.find(f, { sort: { n: 1 } })).map((d) => d.n);
      expect(await ids({ n: { $gt: 2 } })).toEqual([3, 4, 5]);
      expect(await ids({ n: { $gte: 2, $lt: 4 } })).toEqual([2, 3]);
      expect(await ids({ n: { $lte: 1 } })).toEqual([1]);
      expect(await ids({ n: { $in: [1, 5, 9] } })).toEqual([1, 5]);
      expect(await ids({ n: { $in: [] } })).toEqual([]);
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
      expect((await c.find({ org_id: "org_a" }, { sort: { id: 1 } })).map((d) => d.id)).toEqual(["it_1", "it_3", "it_5"]);
      expect(await c.count({ org_id: "org_b" })).toBe(2);
      expect(await c.count({})).toBe(5);
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

    it("deletes one and many", async () => {
      const c = await seed();
      expect(await c.deleteOne({ id: "it_1" })).toBe(true);
      expect(await c.deleteOne({ id: "it_1" })).toBe(false);
      expect(await c.deleteMany({ org_id: "org_b" })).toBe(2);
      expect(await c.count({})).toBe(2);
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
