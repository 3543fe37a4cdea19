import { describe, expect, it } from "@jest/globals";
import { InProcessBus, type CloudEvent } from "@verdict/bus";
import { createLogger } from "@verdict/kit";
import { namespacedBus } from "./namespace.js";

describe("namespacedBus", () => {
  it("keeps two installations on one broker apart, and each one's groups whole", async () => {
    const shared = new InProcessBus(createLogger("ns-test", "silent"), 5);
    const a = namespacedBus(shared, "a");
    const b = namespacedBus(shared, "b");
    const seenA: CloudEvent<number>[] = [];
    const seenB: CloudEvent<number>[] = [];
    await a.subscribe<number>("verdict.x.y", "workers", async (e) => void seenA.push(e));
    await b.subscribe<number>("verdict.x.y", "workers", async (e) => void seenB.push(e));
    await a.publish("verdict.x.y", { source: "/t", data: 1 });
    await b.publish("verdict.x.y", { source: "/t", data: 2 });
    await b.publish("verdict.x.y", { source: "/t", data: 3 });
    await shared.close();
    expect(seenA.map((e) => e.data)).toEqual([1]);
    expect(seenB.map((e) => e.data)).toEqual([2, 3]);
  });
});
