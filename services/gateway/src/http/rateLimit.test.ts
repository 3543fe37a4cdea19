import { describe, expect, it } from "@jest/globals";
import { RateLimitedError, RateLimiter, SPEC_DEFAULTS } from "./rateLimit.js";

describe("RateLimiter.refund", () => {
  it("gives a failed report's point back in the window it was counted in, never more than was counted", async () => {
    const limiter = new RateLimiter({ ...SPEC_DEFAULTS, reports_create_per_hour: 2 });
    const buckets = limiter.bucketsForOrg({}, "reports_create");
    const key = "org:org_a";
    // Nothing counted yet: a refund gives nothing (no third report).
    await limiter.refund(key, "reports_create", Date.now());
    await limiter.consume(key, buckets);
    const counted = Date.now();
    await limiter.consume(key, buckets);
    await expect(limiter.consume(key, buckets)).rejects.toBeInstanceOf(RateLimitedError);
    // A point counted before this window began is not owed.
    await limiter.refund(key, "reports_create", counted - 2 * 3_600_000);
    await expect(limiter.consume(key, buckets)).rejects.toBeInstanceOf(RateLimitedError);
    await limiter.refund(key, "reports_create", counted);
    expect((await limiter.consume(key, buckets)).remaining).toBe(0);
    await expect(limiter.consume(key, buckets)).rejects.toBeInstanceOf(RateLimitedError);
    // Other organizations and other classes are untouched.
    expect((await limiter.consume("org:org_b", buckets)).remaining).toBe(1);
  });
});
