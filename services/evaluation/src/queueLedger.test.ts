// The queue ledger's repository methods under concurrency on the embedded store: two
// connections to one SQLite file (as two processes would hold), see test/queueLedgerContract.ts.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "@jest/globals";
import { SqliteStore } from "@verdict/store";
import { queueLedgerContract } from "../test/queueLedgerContract.js";

const dir = mkdtempSync(join(tmpdir(), "verdict-ledger-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

queueLedgerContract("the embedded store (SQLite)", async () => {
  const file = join(dir, `verdict-${++n}.db`);
  return [new SqliteStore(file), new SqliteStore(file)];
});
