import { afterAll, describe, expect, it } from "@jest/globals";
import { InProcessBus, type CloudEvent } from "@verdict/bus";
import { createLogger } from "@verdict/kit";
import type { IntegrationsDeps } from "../deps.js";
import { CHANGE_RETRY_TOPIC, type ChangeRetryData } from "../domain/events.js";
import { retryDelivery } from "./processChange.js";

const bus = new InProcessBus(createLogger("t", "silent"), 5);
afterAll(() => bus.close());

describe("retryDelivery", () => {
  it("waits a long wait out in steps, publishing the event again after each, unchanged", async () => {
    const seen: CloudEvent<ChangeRetryData>[] = [];
    await bus.subscribe<ChangeRetryData>(CHANGE_RETRY_TOPIC, "t", async (e) => void seen.push(e));
    const now = new Date("2026-11-28T12:00:00Z");
    // Only the bus and the clock are used before the check is due.
    const deps = { bus, clock: { now: () => now } } as unknown as IntegrationsDeps;
    const data: ChangeRetryData = {
      organization_id: "org_1",
      connection_id: "conn_1",
      delivery_id: "dlv_1",
      attempt: 3,
      not_before: new Date(now.getTime() + 60_000).toISOString(),
    };
    const started = Date.now();
    await retryDelivery(deps, data, 20);
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
    for (const deadline = Date.now() + 5000; seen.length === 0 && Date.now() < deadline;)
      await new Promise((r) => setTimeout(r, 5));
    expect(seen.map((e) => e.data)).toEqual([data]);
  });
});
