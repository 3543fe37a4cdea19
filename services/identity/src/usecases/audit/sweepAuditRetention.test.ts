// The audit retention sweep on the embedded store: the run of events past an organization's
// retention is deleted from the start of its chain behind a checkpoint, the export starts from
// it and still verifies, a changed or removed kept event still fails, later appends link to the
// checkpoint, and organizations without a retention keep everything.
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { InProcessBus } from "@verdict/bus";
import { createLogger } from "@verdict/kit";
import { Outbox } from "@verdict/outbox";
import { verifyAuditChain, type ChainedAuditEvent } from "@verdict/sdk";
import { SqliteStore } from "@verdict/store";
import { DEFAULT_SETTINGS } from "../../domain/organization.js";
import { AuditRepo, type AuditRecord } from "../../repos/auditRepo.js";
import { OrganizationRepo } from "../../repos/organizationRepo.js";
import { exportAuditEvents } from "./exportAuditEvents.js";
import { sweepAuditRetention } from "./sweepAuditRetention.js";

const NOW = new Date("2026-11-28T12:00:00.000Z");
const daysAgo = (d: number) => new Date(NOW.getTime() - d * 86_400_000).toISOString();

let store: SqliteStore;
let bus: InProcessBus;
let outbox: Outbox;
let audit: AuditRepo;
let orgs: OrganizationRepo;
const deps = () => ({ audit, orgs, clock: { now: () => NOW } });

async function org(id: string, retention: number | null): Promise<void> {
  await orgs.insert({
    id,
    name: id,
    plan: "team",
    created_at: daysAgo(400),
    settings: { ...DEFAULT_SETTINGS, audit_retention_days: retention },
    rate_limits: {},
    is_default: false,
    version: 1,
  });
}

/** Appends events to an organization's chain, one per age (days before NOW), in the order given. */
async function append(organizationId: string, ...ages: number[]): Promise<void> {
  for (const age of ages)
    await audit.append(
      {
        id: `aud_${organizationId}_${String(Math.random()).slice(2, 12)}`,
        organization_id: organizationId,
        type: "policy.updated",
        actor: { type: "api_key", id: "key_1", ip: "127.0.0.1" },
        target_type: "policy",
        target_id: "p",
        occurred_at: daysAgo(age),
        data: {},
      },
      (r: AuditRecord) => outbox.event("verdict.test.audit", { source: "/test", data: { id: r.id } }),
    );
}

const asExported = (e: AuditRecord): ChainedAuditEvent => ({ ...e, credential: null, request_id: null });

/** What `verdict audit verify` checks: the export from its checkpoint. */
async function verifyExport(
  organizationId: string,
  edit: (events: ChainedAuditEvent[]) => ChainedAuditEvent[] = (e) => e,
) {
  const page = await exportAuditEvents(deps(), { organizationId, afterSeq: 0, limit: 1000 });
  const cp = page.checkpoint;
  return {
    page,
    verdict: verifyAuditChain(
      edit(page.events.map(asExported)),
      cp ? { start: { seq: cp.seq + 1, prev_hash: cp.hash } } : {},
    ),
  };
}

beforeEach(async () => {
  store = new SqliteStore(":memory:");
  bus = new InProcessBus(createLogger("t", "silent"), 5);
  outbox = new Outbox({ bus, logger: createLogger("t", "silent") });
  audit = new AuditRepo(store, outbox);
  orgs = new OrganizationRepo(store, outbox);
  await audit.init();
});
afterEach(async () => {
  await outbox.stop();
  await bus.close();
  await store.close();
});

describe("sweepAuditRetention", () => {
  it("deletes the run past the retention behind a checkpoint; the rest exports and verifies from it", async () => {
    await org("org_a", 90);
    // Seq 4 is past the retention but follows a kept event: the chain loses nothing from its middle.
    await append("org_a", 300, 200, 10, 120, 5);
    const before = await audit.chainPage("org_a", 0, 100);

    expect(await sweepAuditRetention(deps())).toEqual({ org_a: 2 });

    const { page, verdict } = await verifyExport("org_a");
    expect(page.checkpoint).toEqual({ id: "org_a", seq: 2, hash: before[1]!.hash, swept_at: NOW.toISOString() });
    expect(page.events.map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(verdict).toMatchObject({ ok: true, checked: 3, head: { seq: 5, hash: before[4]!.hash } });
    // A second sweep finds nothing more to delete.
    expect(await sweepAuditRetention(deps())).toEqual({});
  });

  it("still detects a changed, removed or reordered kept event", async () => {
    await org("org_a", 90);
    await append("org_a", 300, 200, 10, 5, 1);
    await sweepAuditRetention(deps());
    const changed = await verifyExport("org_a", (es) => es.map((e) => (e.seq === 4 ? { ...e, target_id: "x" } : e)));
    expect(changed.verdict.failure).toMatchObject({ seq: 4, problem: "changed" });
    const firstRemoved = await verifyExport("org_a", (es) => es.slice(1));
    expect(firstRemoved.verdict.failure).toMatchObject({ seq: 4, problem: "missing" });
    const reordered = await verifyExport("org_a", ([a, b, ...rest]) => [b!, a!, ...rest]);
    expect(reordered.verdict.failure).toMatchObject({ seq: 4, problem: "missing" });
  });

  it("deletes every event when all are past it, and the next event links to the checkpoint", async () => {
    await org("org_a", 90);
    await append("org_a", 300, 200);
    const [, second] = await audit.chainPage("org_a", 0, 100);
    expect(await sweepAuditRetention(deps())).toEqual({ org_a: 2 });
    expect((await verifyExport("org_a")).page.events).toEqual([]);

    await append("org_a", 0);
    const { page, verdict } = await verifyExport("org_a");
    expect(page.events.map((e) => [e.seq, e.prev_hash])).toEqual([[3, second!.hash]]);
    expect(verdict.ok).toBe(true);
  });

  it("keeps every event of an organization without a retention, and other organizations' events", async () => {
    await org("org_a", 90);
    await org("org_b", null);
    await append("org_a", 300);
    await append("org_b", 3000, 300);
    await append("org_c", 3000);
    expect(await sweepAuditRetention(deps())).toEqual({ org_a: 1 });
    expect((await audit.chainPage("org_b", 0, 100)).map((e) => e.seq)).toEqual([1, 2]);
    expect(await audit.checkpoint("org_b")).toBeNull();
    expect((await audit.chainPage("org_c", 0, 100)).map((e) => e.seq)).toEqual([1]);
  });

  it("deletes events a crash left behind the checkpoint, and the export never shows them", async () => {
    await org("org_a", 90);
    await append("org_a", 300, 200, 5);
    await sweepAuditRetention(deps());
    // As if the sweep had moved the checkpoint and crashed before deleting: put an event back.
    const kept = await audit.chainPage("org_a", 0, 100);
    const raw = store.collection<AuditRecord>("identity_audit_events");
    await raw.insertOne({ ...kept[0]!, id: "aud_left_behind", seq: 1 });
    expect((await verifyExport("org_a")).page.events.map((e) => e.seq)).toEqual([3]);
    expect(await sweepAuditRetention(deps())).toEqual({ org_a: 1 });
    expect(await raw.count({ organization_id: "org_a" })).toBe(1);
  });
});
