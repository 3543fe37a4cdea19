// The audit log's chain on the embedded store: appends numbered and linked per organization,
// racing appends still one line, a redelivered event refused, and events an earlier version
// stored without a place in the chain given one at start-up.
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { InProcessBus } from "@verdict/bus";
import { createLogger } from "@verdict/kit";
import { Outbox } from "@verdict/outbox";
import { verifyAuditChain } from "@verdict/sdk";
import { DuplicateKeyError, SqliteStore } from "@verdict/store";
import { AuditRepo, type AuditRecord, type UnchainedAuditRecord } from "./auditRepo.js";
import { IDENTITY_COLLECTIONS } from "./collections.js";

let store: SqliteStore;
let bus: InProcessBus;
let outbox: Outbox;
let repo: AuditRepo;

const event = (id: string, organizationId = "org_a"): UnchainedAuditRecord => ({
  id,
  organization_id: organizationId,
  type: "policy.updated",
  actor: { type: "api_key", id: "key_1", ip: "127.0.0.1" },
  target_type: "policy",
  target_id: "p",
  occurred_at: "2026-11-28T17:00:00.000Z",
  data: { changes: { severity: { before: "error", after: "warning" } } },
});
const noEvent = (r: AuditRecord) => outbox.event("verdict.test.audit", { source: "/test", data: { id: r.id } });

beforeEach(async () => {
  store = new SqliteStore(":memory:");
  bus = new InProcessBus(createLogger("t", "silent"), 5);
  outbox = new Outbox({ bus, logger: createLogger("t", "silent") });
  repo = new AuditRepo(store, outbox);
  await repo.init();
});
afterEach(async () => {
  await outbox.stop();
  await bus.close();
  await store.close();
});

describe("AuditRepo chain", () => {
  it("numbers and links each organization's events on their own, and the chain verifies", async () => {
    const appended = await Promise.all(
      ["aud_1", "aud_2", "aud_3", "aud_4", "aud_5"].map((id) => repo.append(event(id), noEvent)),
    );
    await repo.append(event("aud_b1", "org_b"), noEvent);
    const a = await repo.chainPage("org_a", 0, 100);
    expect(a.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(new Set(appended.map((e) => e.seq)).size).toBe(5);
    expect(verifyAuditChain(a.map((e) => ({ ...e, credential: null, request_id: null }))).ok).toBe(true);
    expect((await repo.chainPage("org_b", 0, 100)).map((e) => e.seq)).toEqual([1]);
    expect((await repo.chainPage("org_a", 3, 1)).map((e) => e.seq)).toEqual([4]);
  });

  it("refuses the same event twice", async () => {
    await repo.append(event("aud_1"), noEvent);
    await expect(repo.append(event("aud_1"), noEvent)).rejects.toBeInstanceOf(DuplicateKeyError);
  });

  it("chains the events an earlier version stored, oldest first, after a restart", async () => {
    const raw = store.collection<UnchainedAuditRecord>(IDENTITY_COLLECTIONS.audit);
    await raw.insertOne(event("aud_0002"));
    await raw.insertOne(event("aud_0001"));
    await new AuditRepo(store, outbox).init();
    const chained = await repo.chainPage("org_a", 0, 100);
    expect(chained.map((e) => [e.id, e.seq])).toEqual([
      ["aud_0001", 1],
      ["aud_0002", 2],
    ]);
    expect(verifyAuditChain(chained.map((e) => ({ ...e, credential: null, request_id: null }))).ok).toBe(true);
  });

  it("chains an earlier version's events while another replica appends: neither fails, one line", async () => {
    // A rolling upgrade: an old replica stored events without a place in the chain; a new replica
    // that is already serving appends while another one starts and chains them.
    const raw = store.collection<UnchainedAuditRecord>(IDENTITY_COLLECTIONS.audit);
    for (let i = 1; i <= 20; i++) await raw.insertOne(event(`aud_old${String(i).padStart(2, "0")}`));
    const starting = new AuditRepo(store, outbox).init();
    const live = Array.from({ length: 20 }, (_, i) =>
      repo.append(event(`aud_new${String(i).padStart(2, "0")}`), noEvent),
    );
    await Promise.all([starting, ...live]);
    const chained = await repo.chainPage("org_a", 0, 100);
    expect(chained).toHaveLength(40);
    expect(chained.map((e) => e.seq)).toEqual(chained.map((_, i) => i + 1));
    expect(verifyAuditChain(chained.map((e) => ({ ...e, credential: null, request_id: null }))).ok).toBe(true);
  });
});
