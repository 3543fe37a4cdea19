// claimDue against the real embedded store: oldest first, but never more than the per-organization
// cap for one organization, counting what the worker already has under way.
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { InProcessBus } from "@verdict/bus";
import { createLogger } from "@verdict/kit";
import { Outbox } from "@verdict/outbox";
import { SqliteStore } from "@verdict/store";
import type { WebhookDeps } from "../deps.js";
import { WebhookRepo, type DeliveryRecord } from "../repo.js";
import { claimDue } from "./claimDue.js";

const now = new Date("2026-05-01T12:00:00.000Z");
let store: SqliteStore;
let deps: WebhookDeps;

beforeEach(async () => {
  store = new SqliteStore(":memory:");
  const logger = createLogger("test", "silent");
  const repo = new WebhookRepo(store, new Outbox({ bus: new InProcessBus(logger), logger }));
  await repo.init();
  // claimDue reads the repo, the clock and the lease only.
  deps = { repo, clock: { now: () => now }, leaseMs: 60_000, logger } as Partial<WebhookDeps> as WebhookDeps;
});
afterEach(() => store.close());

async function queue(org: string, n: number, minutesAgo: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const due = new Date(now.getTime() - (minutesAgo * 60 - i) * 1000).toISOString();
    const d: DeliveryRecord = {
      id: `msg_${org}_${i}`,
      organization_id: org,
      webhook_id: `wh_${org}`,
      event: "evaluation.completed",
      event_id: null,
      dedupe_key: `${org}:${i}`,
      body: "{}",
      status: "pending",
      next_attempt_at: due,
      lease_until: null,
      run_attempts: 0,
      run_started_at: null,
      attempts: [],
      version: 0,
      created_at: due,
      completed_at: null,
    };
    await deps.repo.insertDelivery(d);
  }
}

const orgs = (claimed: DeliveryRecord[]) => claimed.map((d) => d.organization_id);

describe("claimDue", () => {
  it("takes the oldest messages, at most perOrg per organization, so a backlog of one organization leaves room for the others", async () => {
    await queue("org_a", 50, 10); // A's backlog is older than anything else
    await queue("org_b", 1, 1);
    await queue("org_c", 2, 2);
    const claimed = await claimDue(deps, { limit: 8, perOrg: 2 });
    expect(orgs(claimed).sort()).toEqual(["org_a", "org_a", "org_b", "org_c", "org_c"]);
    // Claimed messages are leased: not due again.
    expect(await claimDue(deps, { limit: 8, perOrg: 2 })).toHaveLength(2);
  });

  it("counts what is already under way", async () => {
    await queue("org_a", 5, 10);
    await queue("org_b", 3, 1);
    const claimed = await claimDue(deps, {
      limit: 8,
      perOrg: 2,
      inFlight: new Map([
        ["org_a", 2],
        ["org_b", 1],
      ]),
    });
    expect(orgs(claimed)).toEqual(["org_b"]);
  });

  it("without a cap takes the oldest first, whoever they belong to", async () => {
    await queue("org_a", 10, 10);
    await queue("org_b", 1, 1);
    expect(orgs(await claimDue(deps, { limit: 8 }))).toEqual(Array(8).fill("org_a"));
  });
});
