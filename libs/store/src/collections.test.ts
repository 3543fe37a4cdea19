import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "@jest/globals";
import { collectionDef, ensureDeclaredIndexes, openCollections } from "./collections.js";
import { DuplicateKeyError } from "./port.js";
import { SqliteStore } from "./sqlite.js";

const dir = mkdtempSync(join(tmpdir(), "verdict-collections-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Thing {
  id: string;
  organization_id: string;
  name: string;
}

const COLLECTIONS = {
  things: collectionDef<Thing>("test_things", [
    { name: "org_name", fields: { organization_id: 1, name: 1 }, unique: true },
  ]),
  notes: collectionDef<{ id: string; text: string }>("test_notes"),
};

describe("openCollections and ensureDeclaredIndexes", () => {
  it("opens each declared collection under its name and creates its indexes", async () => {
    const store = new SqliteStore(join(dir, "collections.db"));
    const c = openCollections(store, COLLECTIONS);
    await ensureDeclaredIndexes(c, COLLECTIONS);
    await ensureDeclaredIndexes(c, COLLECTIONS); // again on the next start: left as they are

    await c.things.insertOne({ id: "t1", organization_id: "org_1", name: "a" });
    // The unique index is there: the same (organization, name) is refused.
    await expect(c.things.insertOne({ id: "t2", organization_id: "org_1", name: "a" })).rejects.toBeInstanceOf(
      DuplicateKeyError,
    );
    await c.notes.insertOne({ id: "n1", text: "x" });
    // The collection is the store's own under the declared name.
    expect(await store.collection<Thing>("test_things").findOne({ id: "t1" })).toMatchObject({ name: "a" });
    expect(await store.collection("test_notes").count({})).toBe(1);
    await store.close();
  });
});
