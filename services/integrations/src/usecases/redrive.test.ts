// The re-drive of deliveries whose processing never ended, on the real embedded store (SQLite):
// only those left to the bus for long enough, due, and not done are taken up, and each ends once.
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { InProcessBus } from "@verdict/bus";
import { createLogger } from "@verdict/kit";
import { Outbox } from "@verdict/outbox";
import { SqliteStore } from "@verdict/store";
import type { IntegrationsDeps } from "../deps.js";
import { IntegrationsRepo, type InboundDeliveryRecord } from "../repo.js";
import { REDRIVE_AFTER_MS, redriveDeliveries } from "./processChange.js";

const logger = createLogger("redrive-test", "silent");
const NOW = new Date("2026-11-28T12:00:00Z");
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

let store: SqliteStore;
let bus: InProcessBus;
let deps: IntegrationsDeps;

beforeEach(async () => {
  store = new SqliteStore(":memory:");
  bus = new InProcessBus(logger);
  const outbox = new Outbox({ bus, logger });
  const repo = new IntegrationsRepo(store, outbox);
  await repo.init();
  // Deliveries of events that ask for no check: processing one reads only the store.
  deps = { repo, bus, outbox, logger, clock: { now: () => NOW } } as unknown as IntegrationsDeps;
});

afterEach(async () => {
  await bus.close();
  await store.close();
});

function delivery(id: string, extra: Partial<InboundDeliveryRecord>): InboundDeliveryRecord {
  return {
    id,
    organization_id: "org_1",
    connection_id: "conn_1",
    dedupe_key: `conn_1:${id}`,
    event: { kind: "ignored", deliveryId: id, reason: "test" },
    received_at: ago(REDRIVE_AFTER_MS + 1_000),
    ...extra,
  };
}

describe("redriveDeliveries", () => {
  it("takes up a delivery left unprocessed past the bus's turn, once, and nothing else", async () => {
    await deps.repo.c.deliveries.insertOne(delivery("dlv_lost", {}));
    await deps.repo.c.deliveries.insertOne(delivery("dlv_recent", { received_at: ago(1_000) }));
    await deps.repo.c.deliveries.insertOne(delivery("dlv_done", { processed_at: ago(5_000) }));
    await deps.repo.c.deliveries.insertOne(
      delivery("dlv_later", { attempts: 2, not_before: new Date(NOW.getTime() + 60_000).toISOString() }),
    );
    await deps.repo.c.deliveries.insertOne(delivery("dlv_old", { received_at: ago(25 * 60 * 60_000) }));

    expect(await redriveDeliveries(deps)).toBe(1);
    const lost = await deps.repo.c.deliveries.findOne({ id: "dlv_lost" });
    expect(lost?.processed_at).toBe(NOW.toISOString());
    for (const id of ["dlv_recent", "dlv_later", "dlv_old"])
      expect((await deps.repo.c.deliveries.findOne({ id }))?.processed_at).toBeUndefined();
    // Its processing ended: the next sweep finds nothing.
    expect(await redriveDeliveries(deps)).toBe(0);
  });
});
