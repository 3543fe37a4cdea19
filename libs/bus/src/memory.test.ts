import { describe, expect, it } from "@jest/globals";
import { createLogger } from "@verdict/kit";
import { busContract } from "../test/contract.js";
import { InProcessBus } from "./memory.js";
import { Redeliver } from "./port.js";

busContract("in-process", async () => new InProcessBus(createLogger("bus-test", "silent"), 5));

describe("the in-process bus's deliveries", () => {
  it("leave the thread to other work between turns: a burst of events does not hold it", async () => {
    const bus = new InProcessBus(createLogger("bus-test", "silent"), 5);
    let handled = 0;
    // Each handler holds the thread for 1 ms, as a consumer writing to the embedded store does.
    await bus.subscribe<{ n: number }>("verdict.test.burst", "busy", async () => {
      const until = performance.now() + 1;
      while (performance.now() < until);
      handled++;
    });
    for (let n = 0; n < 200; n++) await bus.publish("verdict.test.burst", { source: "/test", data: { n } });
    // A timer due now stands for a request waiting on the thread: it runs after a few
    // deliveries, not after all 200 (which take 200 ms in one go).
    const seenByTimer = await new Promise<number>((resolve) => setTimeout(() => resolve(handled), 0));
    expect(handled).toBeLessThan(200);
    expect(seenByTimer).toBeLessThan(50);
    await bus.close();
    expect(handled).toBe(200);
  });

  it("drop an event its handler leaves for the next consumer (Redeliver): no retry, nothing kept", async () => {
    const bus = new InProcessBus(createLogger("bus-test", "silent"), 5);
    let calls = 0;
    await bus.subscribe("verdict.test.redeliver", "g", async () => {
      calls++;
      throw new Redeliver();
    });
    await bus.publish("verdict.test.redeliver", { source: "/test", data: {} });
    await new Promise((r) => setTimeout(r, 500));
    await bus.close();
    expect(calls).toBe(1);
  });
});
