// The Store contract against a real MongoDB-wire server (FerretDB in a container testcontainers
// starts in the test command, test/containers/infra.ts; or deploy/local/mongo.sh, or any MongoDB). VERDICT_TEST_MONGODB_URI points at it; in CI a missing
// server is a failure, never a silent skip.
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "@jest/globals";
import { MongoClient } from "mongodb";
import { MongoStore } from "./mongo.js";
import { createStore } from "./factory.js";
import { storeContract } from "../test/contract.js";

const uri = process.env.VERDICT_TEST_MONGODB_URI;
const inCi = !!process.env.CI && process.env.CI !== "false" && process.env.CI !== "0";

if (!uri) {
  if (inCi) {
    describe("MongoStore", () => {
      it("runs against a real server", () => {
        throw new Error(
          "VERDICT_TEST_MONGODB_URI is not set: the test command starts FerretDB with test/containers/infra.ts and must pass its URI",
        );
      });
    });
  } else {
    process.stderr.write(
      "MongoStore contract skipped: set VERDICT_TEST_MONGODB_URI (node test/containers/infra.ts or bash deploy/local/mongo.sh start prints it)\n",
    );
    describe.skip("MongoStore (needs VERDICT_TEST_MONGODB_URI)", () => {
      it("runs against a real server", () => undefined);
    });
  }
} else {
  const run = randomBytes(4).toString("hex");
  const databases: string[] = [];
  let n = 0;
  const newDatabase = () => {
    const name = `verdict_contract_${run}_${++n}`;
    databases.push(name);
    return name;
  };
  afterAll(async () => {
    const client = await new MongoClient(uri).connect();
    for (const db of databases) await client.db(db).dropDatabase();
    await client.close();
  });

  storeContract("MongoDB wire protocol", async () => new MongoStore({ uri, database: newDatabase() }).connect());

  describe("MongoStore", () => {
    it("keeps documents across a reconnect, and createStore picks it from the URI", async () => {
      const database = newDatabase();
      const a = await createStore({
        mongodbUri: uri,
        mongodbDatabase: database,
        sqliteFile: "/nonexistent/never-used.db",
      });
      expect(a).toBeInstanceOf(MongoStore);
      await a.collection<{ id: string; v: number }>("things").insertOne({ id: "t1", v: 7 });
      await a.close();
      const b = await new MongoStore({ uri, database }).connect();
      expect(await b.collection<{ id: string; v: number }>("things").findOne({ id: "t1" })).toEqual({ id: "t1", v: 7 });
      await b.close();
    });

    it("stores the id as _id, so ids are unique through the primary index", async () => {
      const database = newDatabase();
      const store = await new MongoStore({ uri, database }).connect();
      await store.collection<{ id: string }>("things").insertOne({ id: "t1" });
      const client = await new MongoClient(uri).connect();
      expect(await client.db(database).collection("things").findOne({})).toEqual({ _id: "t1" });
      await client.close();
      await store.close();
    });
  });
}
