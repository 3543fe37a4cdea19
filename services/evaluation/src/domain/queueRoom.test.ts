import { describe, expect, it } from "@jest/globals";
import { RESERVATION_GRACE_MS, fitsQueue, liveReservations, queueUse, type QueueReservation } from "./queueRoom.js";

const now = new Date("2026-11-24T12:00:00.000Z");
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
const r = (evaluation_id: string, bytes: number, reservedAgoMs: number): QueueReservation => ({
  evaluation_id,
  bytes,
  reserved_at: ago(reservedAgoMs),
});

describe("liveReservations", () => {
  const reservations = [
    r("eval_pending_old", 10, RESERVATION_GRACE_MS * 10),
    r("eval_writing", 20, 1_000),
    r("eval_never_stored", 30, RESERVATION_GRACE_MS + 1),
    r("eval_finished", 40, 1_000),
  ];

  it("keeps what is pending (whatever its age) and what may still be being stored; drops what left or never came", () => {
    const live = liveReservations(
      reservations,
      { pending: new Map([["eval_pending_old", 10]]), left: new Set(["eval_finished"]) },
      now,
    );
    expect(live.map((x) => x.evaluation_id)).toEqual(["eval_pending_old", "eval_writing"]);
  });

  it("counts a reservation exactly up to the end of its grace", () => {
    const edge = [r("eval_edge", 1, RESERVATION_GRACE_MS - 1), r("eval_past", 1, RESERVATION_GRACE_MS)];
    const live = liveReservations(edge, { pending: new Map(), left: new Set() }, now);
    expect(live.map((x) => x.evaluation_id)).toEqual(["eval_edge"]);
  });
});

describe("queueUse", () => {
  it("adds pending evaluations the ledger does not name, and counts a reserved one once", () => {
    const live = [r("eval_a", 100, 0), r("eval_b", 200, 0)];
    const pending = new Map([
      ["eval_a", 100],
      ["eval_legacy", 50],
    ]);
    expect(queueUse(live, pending)).toEqual({ count: 3, bytes: 350 });
  });
});

describe("fitsQueue", () => {
  const caps = { maxCount: 2, maxBytes: 1000 };
  it("refuses one more past the count, or past the bytes unless nothing is queued", () => {
    expect(fitsQueue({ count: 1, bytes: 500 }, 500, caps)).toBe(true);
    expect(fitsQueue({ count: 1, bytes: 500 }, 501, caps)).toBe(false);
    expect(fitsQueue({ count: 2, bytes: 0 }, 1, caps)).toBe(false);
    expect(fitsQueue({ count: 0, bytes: 0 }, 5000, caps)).toBe(true);
  });
});
