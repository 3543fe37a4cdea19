// What someone holding the instance's storage (a backup of the data directory, a dump of its
// MongoDB database) would read: the embedded store's files, or every document of the instance's
// database as Extended JSON. Tests search it for secrets that must never be stored in the clear.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { BSON, MongoClient } from "mongodb";
import { mongoDatabaseOf, type Verdict } from "./server.js";

export async function storedData(v: Verdict): Promise<{ where: string; bytes: Buffer }[]> {
  const mongo = mongoDatabaseOf(v.dataDir);
  if (!mongo) {
    return readdirSync(v.dataDir)
      .filter((f) => f.startsWith("verdict.db") && statSync(join(v.dataDir, f)).isFile())
      .map((f) => ({ where: f, bytes: readFileSync(join(v.dataDir, f)) }));
  }
  const client = await MongoClient.connect(mongo.uri);
  try {
    const db = client.db(mongo.database);
    const out: { where: string; bytes: Buffer }[] = [];
    for (const c of await db.listCollections({}, { nameOnly: true }).toArray()) {
      const docs = await db.collection(c.name).find({}).toArray();
      out.push({
        where: `${mongo.database}.${c.name}`,
        bytes: Buffer.from(BSON.EJSON.stringify(docs, { relaxed: false })),
      });
    }
    return out;
  } finally {
    await client.close();
  }
}
