import { describe, expect, it } from "@jest/globals";
import {
  DEFAULT_RETRY_SCHEDULE,
  judge,
  nextAttemptAt,
  parseRetryAfter,
  parseRetrySchedule,
  retryDelayMs,
} from "./schedule.js";

describe("retry schedule", () => {
  it("spans about three days by default, in ten attempts", () => {
    const hours = DEFAULT_RETRY_SCHEDULE.reduce((a, b) => a + b, 0) / 3600;
    expect(hours).toBeGreaterThan(72);
    expect(hours).toBeLessThan(80);
    expect(DEFAULT_RETRY_SCHEDULE).toHaveLength(9);
    // exponential-ish: every step waits longer than the one before
    for (let i = 1; i < DEFAULT_RETRY_SCHEDULE.length; i++)
      expect(DEFAULT_RETRY_SCHEDULE[i]!).toBeGreaterThan(DEFAULT_RETRY_SCHEDULE[i - 1]!);
  });

  it("parses VERDICT_WEBHOOK_RETRY_SCHEDULE", () => {
    expect(parseRetrySchedule("1,1")).toEqual([1, 1]);
    expect(parseRetrySchedule(" 5, 300 ,0.5")).toEqual([5, 300, 0.5]);
    expect(() => parseRetrySchedule("5,,6")).toThrow("is not a number");
    expect(() => parseRetrySchedule("0")).toThrow("more than 0");
    expect(() => parseRetrySchedule("-1")).toThrow("not a number");
    expect(() => parseRetrySchedule("999999")).toThrow("at most");
  });

  it("jitters each delay by ±20% and ends after the last entry", () => {
    expect(retryDelayMs([10], 1, 0)).toBe(8_000);
    expect(retryDelayMs([10], 1, 0.5)).toBe(10_000);
    expect(retryDelayMs([10], 1, 0.999999)).toBe(12_000);
    expect(retryDelayMs([10, 20], 2, 0.5)).toBe(20_000);
    expect(retryDelayMs([10, 20], 3, 0.5)).toBeUndefined();
  });

  it("honours Retry-After when it asks for longer, in seconds or as a date, capped at a day", () => {
    const now = new Date("2026-01-01T00:00:00Z");
    expect(parseRetryAfter("120", now)).toBe(120);
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:10:00 GMT", now)).toBe(600);
    expect(parseRetryAfter("9999999", now)).toBe(86_400);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(nextAttemptAt(now, 5_000, 120).toISOString()).toBe("2026-01-01T00:02:00.000Z");
    expect(nextAttemptAt(now, 5_000, 1).toISOString()).toBe("2026-01-01T00:00:05.000Z");
  });

  it("judges outcomes: 2xx succeeds, 410 disables, the rest (redirects too) retries", () => {
    expect(judge(200).kind).toBe("succeeded");
    expect(judge(204).kind).toBe("succeeded");
    expect(judge(410).kind).toBe("gone");
    for (const s of [301, 302, 400, 404, 429, 500, 503, undefined]) expect(judge(s).kind).toBe("retry");
  });
});
