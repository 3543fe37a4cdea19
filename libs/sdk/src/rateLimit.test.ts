import { describe, expect, it } from "@jest/globals";
import { rateLimitFrom } from "./rateLimit.js";

describe("rateLimitFrom", () => {
  it("reads the four X-RateLimit headers, the reset as epoch milliseconds", () => {
    const h = new Headers({
      "X-RateLimit-Limit": "60",
      "X-RateLimit-Remaining": "7",
      "X-RateLimit-Reset": "1800000000",
      "X-RateLimit-Window": "60",
    });
    expect(rateLimitFrom(h)).toEqual({ limit: 60, remaining: 7, resetAt: 1_800_000_000_000, windowSeconds: 60 });
  });

  it("answers undefined when a header is missing or not a number", () => {
    expect(
      rateLimitFrom(
        new Headers({ "X-RateLimit-Limit": "60", "X-RateLimit-Remaining": "7", "X-RateLimit-Window": "60" }),
      ),
    ).toBeUndefined();
    expect(
      rateLimitFrom(
        new Headers({
          "X-RateLimit-Limit": "60",
          "X-RateLimit-Remaining": "-1",
          "X-RateLimit-Reset": "1",
          "X-RateLimit-Window": "60",
        }),
      ),
    ).toBeUndefined();
  });
});
