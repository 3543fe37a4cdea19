// The queue ledger's repository methods under concurrency on a real MongoDB-wire server (FerretDB
// in the test command, VERDICT_TEST_MONGODB_URI as for the Store contract, libs/store/src/mongo.medium.test.ts):
// two connections to one database, as two evaluation instances in distributed mode hold.
import { randomBytes } from "node:crypto";
import { afterAll, describe, it } from "@jest/globals";
import { MongoStore } from "@verdict/store";
import { queueLedgerContract } from "../test/queueLedgerContract.js";

const uri = process.env.VERDICT_TEST_MONGODB_URI;
const inCi = !!process.env.CI && process.env.CI !== "false" && process.env.CI !== "0";

if (!uri) {
  if (inCi)
    describe("the queue ledger on MongoDB", () => {
      it("runs against a real server", () => {
        throw new Error("VERDICT_TEST_MONGODB_URI is not set: the test command starts FerretDB and must pass its URI");
      });
    });
  else {
    process.stderr.write(
      "queue ledger on MongoDB skipped: set VERDICT_TEST_MONGODB_URI (bash deploy/local/mongo.sh start prints it)\n",
    );
    describe.skip("the queue ledger on MongoDB (needs VERDICT_TEST_MONGODB_URI)", () => {
      it("runs against a real server", () => undefined);
    });
  }
} else {
  // One database for the file (each test uses organizations of its own), emptied afterwards
  // through the port (this package does not depend on the driver).
  const database = `verdict_ledger_${randomBytes(4).toString("hex")}`;
  afterAll(async () => {
    const store = await new MongoStore({ uri, database }).connect();
    for (const name of ["evaluation_evaluations", "evaluation_job_files", "evaluation_queue_ledgers"])
      await store.collection(name).deleteMany({});
    await store.close();
  });
  queueLedgerContract("a MongoDB-wire server", async () => [
    await new MongoStore({ uri, database }).connect(),
    await new MongoStore({ uri, database }).connect(),
  ]);
}
