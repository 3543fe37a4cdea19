import { describe, expect, it } from "@jest/globals";
import { assembleStats, bucketOf, bucketsOf, parseStatsInput } from "./stats.js";

const now = new Date("2026-03-10T12:00:00.000Z");

describe("parseStatsInput", () => {
  it("defaults to the 30 days before now, in days", () => {
    expect(parseStatsInput({}, now)).toEqual({
      range: { since: "2026-02-08T12:00:00.000Z", until: "2026-03-10T12:00:00.000Z", bucket: "day" },
      problems: [],
    });
  });

  it("names the field of each problem", () => {
    expect(parseStatsInput({ since: "2026-03-11", until: "2026-03-10" }, now).problems).toEqual([
      expect.objectContaining({ field: "since", code: "INVALID_FORMAT" }),
    ]);
    expect(parseStatsInput({ since: "2024-01-01", until: "2026-01-01" }, now).problems[0]!.message).toMatch(/366 days/);
    expect(parseStatsInput({ until: "soon" }, now).problems[0]).toMatchObject({ field: "until" });
    expect(parseStatsInput({ bucket: "hour" }, now).problems[0]).toMatchObject({
      field: "bucket",
      code: "INVALID_ENUM",
    });
  });
});

describe("buckets", () => {
  it("starts weeks on Monday and lists every bucket of the range once", () => {
    expect(bucketOf("2026-03-08", "week")).toBe("2026-03-02"); // a Sunday
    expect(bucketOf("2026-03-09", "week")).toBe("2026-03-09"); // a Monday
    const range = { since: "2026-03-01T00:00:00.000Z", until: "2026-03-10T00:00:00.000Z", bucket: "week" as const };
    // 2026-03-01 is a Sunday; the last day (until is exclusive) is Monday 2026-03-09.
    expect(bucketsOf(range)).toEqual(["2026-02-23", "2026-03-02", "2026-03-09"]);
    expect(bucketsOf({ ...range, bucket: "day" })).toHaveLength(9);
  });

  it("adds the grouped rows up per bucket and ranks policies and repositories", () => {
    const range = { since: "2026-03-01T00:00:00.000Z", until: "2026-03-03T00:00:00.000Z", bucket: "day" as const };
    const stats = assembleStats(
      range,
      [
        { day: "2026-03-01", passed: true, count: 2, violations: 1 },
        { day: "2026-03-01", passed: false, count: 1, violations: 4 },
      ],
      [
        { policy_id: "b", violations: 1 },
        { policy_id: "a", violations: 4 },
      ],
      [
        { repository: "x/y", passed: false, count: 1, violations: 4 },
        { repository: "x/y", passed: true, count: 1, violations: 0 },
        { repository: "x/z", passed: true, count: 1, violations: 1 },
      ],
    );
    expect(stats.totals).toEqual({ evaluations: 3, passed: 2, failed: 1, violations: 5 });
    expect(stats.buckets).toEqual([
      { start: "2026-03-01", evaluations: 3, passed: 2, failed: 1, violations: 5 },
      { start: "2026-03-02", evaluations: 0, passed: 0, failed: 0, violations: 0 },
    ]);
    expect(stats.top_policies.map((p) => p.policy_id)).toEqual(["a", "b"]);
    expect(stats.top_repositories).toEqual([
      { repository: "x/y", evaluations: 2, failed: 1, violations: 4 },
      { repository: "x/z", evaluations: 1, failed: 0, violations: 1 },
    ]);
  });
});
