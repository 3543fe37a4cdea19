import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "@jest/globals";
import { SqliteStore, StoreLockedError } from "./sqlite.js";
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

describe("SqliteStore at rest", () => {
  it("keeps an exclusive file to itself: a second store on it fails at once", async () => {
    const file = join(dir, "exclusive", "verdict.db");
    const a = new SqliteStore(file, { exclusive: true });
    await a.collection<{ id: string }>("things").insertOne({ id: "t1" });
    expect(() => new SqliteStore(file, { exclusive: true })).toThrow(StoreLockedError);
    await a.close();
    const b = new SqliteStore(file, { exclusive: true });
    expect(await b.collection<{ id: string }>("things").count({})).toBe(1);
    await b.close();
  });

  it("creates its file 0600 in a 0700 directory", async () => {
    const file = join(dir, "modes", "verdict.db");
    const s = new SqliteStore(file);
    expect(statSync(join(dir, "modes")).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await s.close();
  });

  it("leaves a shared (sticky) directory such as /tmp as it is", async () => {
    const before = statSync(tmpdir()).mode;
    const file = join(tmpdir(), `verdict-store-shared-${process.pid}.db`);
    const s = new SqliteStore(file);
    await s.close();
    for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
    expect(statSync(tmpdir()).mode).toBe(before);
  });
});
