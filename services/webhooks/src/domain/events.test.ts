// The audit.recorded payload: the export's line, field by field, whatever else the bus event holds.
import { describe, expect, it } from "@jest/globals";
import type { AuditRecordedData } from "@verdict/bus";
import { auditRecordedData } from "./events.js";

const recorded: AuditRecordedData = {
  organization_id: "org_a",
  seq: 7,
  id: "aud_01",
  type: "webhook.created",
  actor: { type: "api_key", id: "key_1", ip: "203.0.113.7" },
  credential: { type: "api_key", id: "key_1" },
  request_id: "req_1",
  target_type: "webhook",
  target_id: "wh_1",
  occurred_at: "2026-11-28T17:00:00.000Z",
  data: { secret: "given", changes: { events: { before: null, after: ["audit.recorded"] } } },
  prev_hash: "a".repeat(64),
  hash: "b".repeat(64),
};

describe("auditRecordedData", () => {
  it("is the event as the export carries it, and nothing a publisher adds", () => {
    const added = { ...recorded, _id: "x", outbox: { pending: true }, actor: { ...recorded.actor, token: "t" } };
    expect(auditRecordedData(added as AuditRecordedData)).toEqual(recorded);
  });

  it("says null for a credential and request id an older event lacks", () => {
    const { credential: _c, request_id: _r, ...older } = recorded;
    expect(auditRecordedData(older)).toMatchObject({ credential: null, request_id: null });
  });
});
