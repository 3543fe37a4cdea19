import { describe, expect, it } from "@jest/globals";
import type { Annotation, CheckReport } from "../../domain/provider.js";
import { checkRunUpdates, summaryOf } from "./checks.js";

const NOW = new Date("2026-11-28T12:00:00Z");
const finding = (i: number): Annotation => ({
  path: "a.ts",
  line: i + 1,
  endLine: i,
  level: "failure",
  title: "t",
  message: "m",
  fingerprint: `fp${i}`,
});
const report = (state: CheckReport["state"], count: number): CheckReport => ({
  state,
  title: "title",
  summary: "summary",
  annotations: Array.from({ length: count }, (_, i) => finding(i)),
});

describe("checkRunUpdates", () => {
  it("sends 50 annotations in one request and 51 in two, concluding on the last", () => {
    expect(checkRunUpdates(report("failure", 50), NOW).map((u) => u.output.annotations?.length)).toEqual([50]);
    const two = checkRunUpdates(report("failure", 51), NOW);
    expect(two.map((u) => [u.status, u.conclusion, u.output.annotations?.length])).toEqual([
      [undefined, undefined, 50],
      ["completed", "failure", 1],
    ]);
    expect(two[1]?.completed_at).toBe("2026-11-28T12:00:00.000Z");
  });

  it("concludes an evaluation error as a failure and a change too large as neutral", () => {
    expect(checkRunUpdates(report("error", 0), NOW)[0]?.conclusion).toBe("failure");
    expect(checkRunUpdates(report("neutral", 0), NOW)[0]?.conclusion).toBe("neutral");
    expect(checkRunUpdates(report("success", 0), NOW)[0]).toMatchObject({ status: "completed", conclusion: "success" });
  });

  it("keeps an end line never before its start line", () => {
    const [update] = checkRunUpdates(report("failure", 1), NOW);
    expect(update?.output.annotations?.[0]).toMatchObject({
      start_line: 1,
      end_line: 1,
      raw_details: "fingerprint: fp0",
    });
  });

  it("keeps the summary within GitHub's 65,535 characters, counts and link included", () => {
    const long = { ...report("failure", 2), summary: "x".repeat(70_000), detailsUrl: "https://v.test/e/1" };
    const summary = summaryOf(long);
    expect(summary.length).toBeLessThanOrEqual(65_535);
    expect(
      summary.endsWith("**2 failures, 0 warnings, 0 notices**\n\n[The evaluation in Verdict](https://v.test/e/1)"),
    ).toBe(true);
    expect(summaryOf(report("success", 1))).toBe("summary\n\n**1 failure, 0 warnings, 0 notices**");
  });
});
