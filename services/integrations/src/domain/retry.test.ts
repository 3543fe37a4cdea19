import { describe, expect, it } from "@jest/globals";
import { ProviderError } from "./provider.js";
import {
  providerErrorFromHttp,
  rescheduleDelayMs,
  retryAfterFromHeaders,
  retryDelayMs,
  withRetry,
  type RetryPolicy,
} from "./retry.js";

const NOW = Date.parse("2026-11-28T12:00:00Z");
const POLICY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 10_000 };

describe("retryAfterFromHeaders", () => {
  it("reads Retry-After in seconds and as an HTTP date", () => {
    expect(retryAfterFromHeaders({ "Retry-After": "7" }, NOW)).toBe(7000);
    expect(retryAfterFromHeaders({ "retry-after": "Sat, 28 Nov 2026 12:00:30 GMT" }, NOW)).toBe(30_000);
    expect(retryAfterFromHeaders({ "retry-after": "Sat, 28 Nov 2026 11:00:00 GMT" }, NOW)).toBe(0);
  });

  it("reads GitHub's x-ratelimit-reset (epoch seconds) only when nothing remains", () => {
    const reset = String(NOW / 1000 + 42);
    expect(retryAfterFromHeaders({ "x-ratelimit-remaining": "0", "x-ratelimit-reset": reset }, NOW)).toBe(42_000);
    expect(retryAfterFromHeaders({ "x-ratelimit-remaining": "12", "x-ratelimit-reset": reset }, NOW)).toBeUndefined();
  });

  it("reads GitLab's RateLimit-Reset as epoch seconds and the IETF draft's as delta seconds", () => {
    const reset = String(NOW / 1000 + 5);
    expect(retryAfterFromHeaders({ "RateLimit-Remaining": "0", "RateLimit-Reset": reset }, NOW)).toBe(5000);
    expect(retryAfterFromHeaders({ "RateLimit-Reset": "3" }, NOW)).toBe(3000);
  });

  it("prefers Retry-After and ignores what it cannot read", () => {
    expect(retryAfterFromHeaders({ "retry-after": "2", "ratelimit-reset": "60" }, NOW)).toBe(2000);
    expect(retryAfterFromHeaders({ "retry-after": "soon" }, NOW)).toBeUndefined();
    expect(retryAfterFromHeaders({}, NOW)).toBeUndefined();
  });
});

describe("providerErrorFromHttp", () => {
  const code = (status: number, headers = {}, message = "x") =>
    providerErrorFromHttp(status, headers, message, NOW).code;

  it("maps the provider's answers to the closed set of codes", () => {
    expect(code(401)).toBe("unauthorized");
    expect(code(403)).toBe("forbidden");
    expect(code(404)).toBe("not_found");
    expect(code(429)).toBe("rate_limited");
    expect(code(500)).toBe("unavailable");
    expect(code(503)).toBe("unavailable");
    expect(code(0)).toBe("unavailable");
    expect(code(422)).toBe("invalid");
  });

  it("tells GitHub's rate-limit 403s from a refusal", () => {
    expect(code(403, { "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(NOW / 1000 + 1) })).toBe(
      "rate_limited",
    );
    expect(code(403, { "retry-after": "60" })).toBe("rate_limited");
    expect(code(403, {}, "You have exceeded a secondary rate limit")).toBe("rate_limited");
    expect(code(403, {}, "Resource not accessible by integration")).toBe("forbidden");
  });

  it("keeps the wait and the status on a retryable error only", () => {
    const limited = providerErrorFromHttp(429, { "retry-after": "3" }, "slow down", NOW);
    expect([limited.retryAfterMs, limited.status, limited.message]).toEqual([3000, 429, "slow down"]);
    expect(providerErrorFromHttp(404, { "retry-after": "3" }, "gone", NOW).retryAfterMs).toBeUndefined();
  });
});

describe("retryDelayMs", () => {
  const limited = new ProviderError("rate_limited", "x", 1500);
  const down = new ProviderError("unavailable", "x");

  it("waits as long as the provider asked", () => {
    expect(retryDelayMs(limited, 1, POLICY, () => 0.5)).toBe(1500);
  });

  it("backs off exponentially with full jitter, capped", () => {
    expect(retryDelayMs(down, 1, POLICY, () => 0.999)).toBe(99);
    expect(retryDelayMs(down, 3, POLICY, () => 0.999)).toBe(399);
    expect(retryDelayMs(down, 3, { ...POLICY, maxDelayMs: 250 }, () => 0.999)).toBe(249);
  });

  it("gives up: after maxAttempts, on a final error, on a wait beyond maxDelayMs, on a foreign error", () => {
    expect(retryDelayMs(down, 4, POLICY, () => 0)).toBeNull();
    expect(retryDelayMs(new ProviderError("unauthorized", "revoked"), 1, POLICY, () => 0)).toBeNull();
    expect(retryDelayMs(new ProviderError("rate_limited", "x", 3_600_000), 1, POLICY, () => 0)).toBeNull();
    expect(retryDelayMs(new Error("bug"), 1, POLICY, () => 0)).toBeNull();
  });
});

describe("withRetry", () => {
  function recorder() {
    const slept: number[] = [];
    return { slept, env: { sleep: async (ms: number) => void slept.push(ms), random: () => 0.5 } };
  }

  it("retries a retryable failure and returns the first success", async () => {
    const { slept, env } = recorder();
    const answers: Array<() => string> = [
      () => {
        throw new ProviderError("rate_limited", "429", 2000);
      },
      () => {
        throw new ProviderError("unavailable", "502");
      },
      () => "ok",
    ];
    let calls = 0;
    await expect(withRetry(async () => answers[calls++]!(), POLICY, env)).resolves.toBe("ok");
    expect(calls).toBe(3);
    expect(slept).toEqual([2000, 100]);
  });

  it("throws the last error once the attempts are spent, and a final error at once", async () => {
    const { slept, env } = recorder();
    let calls = 0;
    const down = withRetry(
      async () => {
        calls++;
        throw new ProviderError("unavailable", `try ${calls}`);
      },
      POLICY,
      env,
    );
    await expect(down).rejects.toThrow("try 4");
    expect(slept).toHaveLength(3);

    let gone = 0;
    await expect(
      withRetry(
        async () => {
          gone++;
          throw new ProviderError("not_found", "no such repository");
        },
        POLICY,
        env,
      ),
    ).rejects.toMatchObject({ code: "not_found" });
    expect(gone).toBe(1);
  });
});

describe("rescheduleDelayMs", () => {
  const policy: RetryPolicy = { maxAttempts: 3, baseDelayMs: 1000, maxDelayMs: 5000 };

  it("doubles per attempt, waits at least what the provider asked, at most the ceiling", () => {
    const outage = new ProviderError("unavailable", "down");
    expect(rescheduleDelayMs(outage, 1, policy)).toBe(1000);
    expect(rescheduleDelayMs(outage, 2, policy)).toBe(2000);
    expect(rescheduleDelayMs(new ProviderError("rate_limited", "slow down", 3500), 1, policy)).toBe(3500);
    expect(rescheduleDelayMs(new ProviderError("rate_limited", "slow down", 3_600_000), 1, policy)).toBe(5000);
  });

  it("gives up after the last attempt and never reschedules what retrying cannot mend", () => {
    expect(rescheduleDelayMs(new ProviderError("unavailable", "down"), 3, policy)).toBeNull();
    expect(rescheduleDelayMs(new ProviderError("unauthorized", "revoked"), 1, policy)).toBeNull();
    expect(rescheduleDelayMs(new ProviderError("not_found", "gone"), 1, policy)).toBeNull();
    expect(rescheduleDelayMs(new Error("a bug"), 1, policy)).toBeNull();
  });
});
