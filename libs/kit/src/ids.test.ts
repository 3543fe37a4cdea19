import { describe, expect, it } from "@jest/globals";
import { isId, newId } from "./ids.js";

describe("newId", () => {
  it("makes prefixed ULIDs that sort in creation order, also within one millisecond", () => {
    const now = Date.now();
    const ids = Array.from({ length: 5000 }, (_, i) => newId("evt", now + Math.floor(i / 1000)));
    for (const id of ids) expect(isId("evt", id)).toBe(true);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("draws the random part from the whole alphabet, evenly", () => {
    // First ids of distinct milliseconds: each takes a fresh random part (16 characters).
    const counts = new Map<string, number>();
    const base = Date.parse("2030-01-01T00:00:00Z");
    for (let i = 0; i < 4000; i++) {
      for (const c of newId("req", base + i * 1000).slice(4 + 10)) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    // 64,000 characters over 32 symbols: 2,000 each on average.
    expect(counts.size).toBe(32);
    for (const n of counts.values()) expect(Math.abs(n - 2000)).toBeLessThan(300);
  });
});
