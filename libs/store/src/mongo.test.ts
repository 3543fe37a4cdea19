import { describe, expect, it } from "@jest/globals";
import { AppError } from "@verdict/kit";
import { createServer } from "node:net";
import { MongoStore } from "./mongo.js";

/** A local port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("MongoStore when the database cannot be reached", () => {
  it("fails each operation as SERVICE_UNAVAILABLE with retry advice (a 503), never an unexpected error", async () => {
    const store = new MongoStore({
      uri: `mongodb://127.0.0.1:${await closedPort()}/verdict`,
      client: { serverSelectionTimeoutMS: 300 },
    });
    const things = store.collection<{ id: string; n: number }>("things");
    try {
      const ops: [string, () => Promise<unknown>][] = [
        ["findOne", () => things.findOne({ id: "a" })],
        ["find", () => things.find({}, { sort: { n: 1 }, limit: 5 })],
        ["count", () => things.count({})],
        ["insertOne", () => things.insertOne({ id: "a", n: 1 })],
        ["updateOne", () => things.updateOne({ id: "a" }, { n: 2 })],
        ["deleteOne", () => things.deleteOne({ id: "a" })],
        ["deleteMany", () => things.deleteMany({})],
        ["group", () => things.group({}, { by: { n: "n" } })],
        ["ensureIndexes", () => things.ensureIndexes([{ name: "by_n", fields: { n: 1 } }])],
      ];
      for (const [name, op] of ops) {
        const err = await op().then(
          () => new Error(`${name} succeeded`),
          (e: unknown) => e,
        );
        expect([name, err instanceof AppError && err.httpStatus, (err as AppError).code]).toEqual([
          name,
          503,
          "SERVICE_UNAVAILABLE",
        ]);
        expect((err as Error).message).toMatch(/retry with backoff/);
        // The driver's own error rides along for the service's log.
        expect((err as Error).cause).toBeInstanceOf(Error);
      }
    } finally {
      await store.close();
    }
  });
});
