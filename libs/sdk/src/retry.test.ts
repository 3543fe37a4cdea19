import { describe, expect, it } from "@jest/globals";
import { DEFAULT_RETRY, parseRetryAfter, retryDelay } from "./retry.js";

const policy = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 10_000 };

describe("retry guidance", () => {
  it("waits for Retry-After on 429", () => {
    expect(retryDelay({ status: 429, retryAfter: "3" }, 1, policy, 0.5)).toBe(3000);
    expect(retryDelay({ status: 429, retryAfter: "0" }, 1, policy, 0.5)).toBe(0);
  });

  it("gives up on a 429 whose Retry-After is longer than the longest wait", () => {
    expect(retryDelay({ status: 429, retryAfter: "60" }, 1, policy, 0.5)).toBeNull();
  });

  it("backs off exponentially on 500 and 503 and on connection failures", () => {
    expect(retryDelay({ status: 500, retryAfter: null }, 1, policy, 0.5)).toBe(100);
    expect(retryDelay({ status: 503, retryAfter: null }, 2, policy, 0.5)).toBe(200);
    expect(retryDelay({ connectionError: true }, 2, policy, 0.5)).toBe(200);
    expect(retryDelay({ status: 503, retryAfter: null }, 3, policy, 0)).toBe(200);
  });

  it("never retries other statuses", () => {
    for (const status of [400, 401, 403, 404, 409, 410, 422, 502])
      expect(retryDelay({ status, retryAfter: "1" }, 1, policy, 0.5)).toBeNull();
  });

  it("stops after the last retry", () => {
    expect(retryDelay({ status: 503, retryAfter: null }, policy.maxRetries + 1, policy, 0.5)).toBeNull();
    expect(retryDelay({ connectionError: true }, policy.maxConnectionRetries + 1, policy, 0.5)).toBeNull();
  });

  it("reads Retry-After as seconds or an HTTP date", () => {
    expect(parseRetryAfter("12")).toBe(12);
    expect(parseRetryAfter(new Date(10_000 + 5_000).toUTCString(), 10_000)).toBe(5);
    expect(parseRetryAfter("soon")).toBeNull();
    expect(parseRetryAfter(null)).toBeNull();
  });
});
