import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "@jest/globals";
import { SqliteStore } from "./sqlite.js";
import { storeContract } from "../test/contract.js";

const dir = mkdtempSync(join(tmpdir(), "verdict-store-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
storeContract("embedded SQLite", async () => new SqliteStore(join(dir, `contract-${++n}.db`)));

describe("SqliteStore", () => {
  it("keeps documents across a reopen of the same file", async () => {
    const file = join(dir, "durable.db");
    const a = new SqliteStore(file);
    await a.collection<{ id: string; v: number }>("things").insertOne({ id: "t1", v: 7 });
    await a.close();
    const b = new SqliteStore(file);
    expect(await b.collection<{ id: string; v: number }>("things").findOne({ id: "t1" })).toEqual({ id: "t1", v: 7 });
    await b.close();
  });
});
