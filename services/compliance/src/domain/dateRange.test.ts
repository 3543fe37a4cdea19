import { describe, expect, it } from "@jest/globals";
import { checkDateRange, daysIn, instants, parseLastDays } from "./dateRange.js";

const now = new Date("2026-05-10T15:00:00Z");

describe("date ranges", () => {
  it("accepts an inclusive range up to today", () => {
    expect(checkDateRange({ start: "2026-01-01", end: "2026-05-10" }, now)).toEqual([]);
    expect(daysIn({ start: "2026-05-10", end: "2026-05-10" })).toBe(1);
  });

  it("names the field that is wrong", () => {
    expect(checkDateRange({ start: "2026-02-30", end: "2026-03-01" }, now)).toEqual([
      expect.objectContaining({ field: "date_range.start", code: "INVALID_FORMAT" }),
    ]);
    expect(checkDateRange({ start: "2026-03-02", end: "2026-03-01" }, now)).toEqual([
      expect.objectContaining({ field: "date_range.end", message: expect.stringContaining("before") }),
    ]);
    expect(checkDateRange({ start: "2026-05-01", end: "2026-05-11" }, now)).toEqual([
      expect.objectContaining({ field: "date_range.end", message: expect.stringContaining("future") }),
    ]);
    expect(checkDateRange({ start: "2024-01-01", end: "2026-01-01" }, now)).toEqual([
      expect.objectContaining({ field: "date_range.end", code: "MAX_SIZE_EXCEEDED", max: 366 }),
    ]);
  });

  it("reads <n>d as the last n days ending today", () => {
    expect(parseLastDays("90d", now).range).toEqual({ start: "2026-02-10", end: "2026-05-10" });
    expect(parseLastDays("1d", now).range).toEqual({ start: "2026-05-10", end: "2026-05-10" });
    expect(daysIn(parseLastDays("90d", now).range!)).toBe(90);
    for (const bad of ["0d", "90", "d", "-3d", "9.5d", "90 d"])
      expect(parseLastDays(bad, now).problems[0]).toMatchObject({ field: "date_range", code: "INVALID_FORMAT" });
    expect(parseLastDays("400d", now).problems[0]).toMatchObject({ code: "MAX_SIZE_EXCEEDED" });
  });

  it("covers whole UTC days", () => {
    expect(instants({ start: "2026-03-01", end: "2026-03-31" })).toEqual({
      from: "2026-03-01T00:00:00.000Z",
      to: "2026-04-01T00:00:00.000Z",
    });
  });
});
