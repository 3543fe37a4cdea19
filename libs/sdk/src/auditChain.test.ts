import { describe, expect, it } from "@jest/globals";
import {
  auditEventHash,
  GENESIS_HASH,
  parseAuditExport,
  verifyAuditChain,
  verifyAuditExport,
  type ChainedAuditEvent,
} from "./auditChain.js";

function chain(n: number): ChainedAuditEvent[] {
  const out: ChainedAuditEvent[] = [];
  for (let seq = 1; seq <= n; seq++) {
    const e = {
      seq,
      id: `aud_${seq}`,
      organization_id: "org_1",
      type: "policy.updated",
      actor: { type: "api_key", id: "key_1", ip: "127.0.0.1" },
      credential: { type: "api_key", id: "key_1" },
      request_id: `req_${seq}`,
      target_type: "policy",
      target_id: "p",
      occurred_at: `2026-11-28T17:00:0${seq}.000Z`,
      data: { changes: { severity: { before: "error", after: "warning" } }, n: seq },
      prev_hash: out[seq - 2]?.hash ?? GENESIS_HASH,
    };
    out.push({ ...e, hash: auditEventHash(e) });
  }
  return out;
}

describe("verifyAuditChain", () => {
  it("accepts an intact chain and answers its head", () => {
    const events = chain(4);
    expect(verifyAuditChain(events)).toEqual({ ok: true, checked: 4, head: { seq: 4, hash: events[3]!.hash } });
  });

  it("hashes the canonical form: key order does not matter, absent credential is null", () => {
    const [e] = chain(1);
    const reordered = Object.fromEntries(Object.entries(e!).reverse()) as unknown as ChainedAuditEvent;
    expect(Object.keys(reordered)[0]).toBe("hash");
    expect(auditEventHash(reordered)).toBe(e!.hash);
    const { credential: _c, ...without } = { ...e!, credential: null };
    expect(auditEventHash({ ...without, credential: undefined })).toBe(auditEventHash({ ...e!, credential: null }));
  });

  it("names a changed event", () => {
    const events = chain(4);
    events[2] = { ...events[2]!, data: { n: 99 } };
    expect(verifyAuditChain(events).failure).toMatchObject({ seq: 3, id: "aud_3", problem: "changed" });
  });

  it("names the event after a removed one, and a reordered or repeated one", () => {
    const events = chain(5);
    expect(verifyAuditChain([...events.slice(0, 2), ...events.slice(3)]).failure).toMatchObject({
      seq: 4,
      problem: "missing",
    });
    const swapped = [events[0]!, events[2]!, events[1]!, events[3]!];
    expect(verifyAuditChain(swapped).failure).toMatchObject({ seq: 3, id: "aud_3", problem: "missing" });
    expect(verifyAuditChain([events[0]!, events[0]!]).failure).toMatchObject({ seq: 1, problem: "out_of_order" });
  });

  it("names an event relinked to a forged predecessor (rehashed but not linked)", () => {
    const events = chain(3);
    const forged = { ...events[1]!, prev_hash: "f".repeat(64) };
    events[1] = { ...forged, hash: auditEventHash(forged) };
    expect(verifyAuditChain(events).failure).toMatchObject({ seq: 2, problem: "unlinked" });
  });

  it("detects a cut-off end against a known head", () => {
    const events = chain(4);
    const head = { seq: 4, hash: events[3]!.hash };
    expect(verifyAuditChain(events, { knownHead: head }).ok).toBe(true);
    expect(verifyAuditChain(events.slice(0, 3), { knownHead: head }).failure).toMatchObject({ problem: "truncated" });
  });

  it("parses an export, blank lines ignored, a broken line named", () => {
    const events = chain(2);
    expect(parseAuditExport(events.map((e) => JSON.stringify(e)).join("\n") + "\n\n")).toEqual(events);
    expect(() => parseAuditExport(`${JSON.stringify(events[0])}\n{oops`)).toThrow("line 2");
  });

  it("verifies an export from its retention checkpoint line, and still names a changed kept event", () => {
    const events = chain(5);
    const cp = { seq: 2, hash: events[1]!.hash, swept_at: "2026-11-28T18:00:00.000Z" };
    const lines = (es: ChainedAuditEvent[]) =>
      [JSON.stringify({ checkpoint: cp }), ...es.map((e) => JSON.stringify(e))].join("\n") + "\n";
    const kept = events.slice(2);
    expect(parseAuditExport(lines(kept))).toEqual(kept);
    expect(verifyAuditExport(lines(kept))).toMatchObject({ ok: true, checked: 3, head: { seq: 5 }, checkpoint: cp });
    // Without the checkpoint line the kept run is events removed from the start.
    expect(verifyAuditExport(kept.map((e) => JSON.stringify(e)).join("\n")).failure).toMatchObject({
      seq: 3,
      problem: "missing",
    });
    const changed = kept.map((e) => (e.seq === 4 ? { ...e, target_id: "other" } : e));
    expect(verifyAuditExport(lines(changed)).failure).toMatchObject({ seq: 4, problem: "changed" });
    expect(verifyAuditExport(lines(kept.slice(1))).failure).toMatchObject({ seq: 4, problem: "missing" });
  });

  it("checks a known head against the checkpoint when the events up to it were deleted", () => {
    const events = chain(3);
    const cp = { seq: 3, hash: events[2]!.hash, swept_at: "2026-11-28T18:00:00.000Z" };
    const text = `${JSON.stringify({ checkpoint: cp })}\n`;
    expect(verifyAuditExport(text, { knownHead: { seq: 3, hash: events[2]!.hash } })).toMatchObject({
      ok: true,
      checked: 0,
      head: { seq: 3, hash: events[2]!.hash },
    });
    expect(verifyAuditExport(text, { knownHead: { seq: 3, hash: events[1]!.hash } }).failure).toMatchObject({
      problem: "changed",
    });
    expect(verifyAuditExport(text, { knownHead: { seq: 4, hash: events[1]!.hash } }).failure).toMatchObject({
      problem: "truncated",
    });
  });
});
