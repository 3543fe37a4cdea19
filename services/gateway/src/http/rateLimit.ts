// Rate limits per organization (minute, hour, day) plus an endpoint-specific limit, each a
// fixed window from rate-limiter-flexible. Organizations may have their own numbers (set by the
// instance operator); unauthenticated traffic is limited per client address.
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { AppError } from "@verdict/kit";
import type { identityV1 } from "@verdict/proto";
import type { RateClass } from "./route.js";

export interface LimitDefaults {
  per_minute: number;
  per_hour: number;
  per_day: number;
  evaluations_create_per_minute: number;
  evaluations_list_per_minute: number;
  reports_create_per_hour: number;
  reads_per_minute: number;
}

export const SPEC_DEFAULTS: LimitDefaults = {
  per_minute: 1_000,
  per_hour: 20_000,
  per_day: 240_000,
  evaluations_create_per_minute: 60,
  evaluations_list_per_minute: 100,
  reports_create_per_hour: 10,
  reads_per_minute: 200,
};

interface Bucket {
  name: string;
  limit: number;
  windowSec: number;
  label: string;
}

export interface RateState {
  limit: number;
  remaining: number;
  resetUnix: number;
  windowSec: number;
}

const WINDOWS = { minute: [60, "1m"], hour: [3600, "1h"], day: [86_400, "1d"] } as const;

const CLASS_LIMIT: Record<RateClass, { key: keyof LimitDefaults; window: keyof typeof WINDOWS } | undefined> = {
  evaluations_create: { key: "evaluations_create_per_minute", window: "minute" },
  evaluations_list: { key: "evaluations_list_per_minute", window: "minute" },
  reports_create: { key: "reports_create_per_hour", window: "hour" },
  reads: { key: "reads_per_minute", window: "minute" },
  writes: undefined,
};

export class RateLimiter {
  private readonly limiters = new Map<string, RateLimiterMemory>();

  constructor(private readonly defaults: LimitDefaults) {}

  private limiter(b: Bucket): RateLimiterMemory {
    const id = `${b.name}:${b.limit}:${b.windowSec}`;
    let l = this.limiters.get(id);
    if (!l) {
      l = new RateLimiterMemory({ keyPrefix: id, points: b.limit, duration: b.windowSec });
      this.limiters.set(id, l);
    }
    return l;
  }

  private bucket(name: string, limit: number, window: keyof typeof WINDOWS): Bucket {
    const [windowSec, label] = WINDOWS[window];
    return { name, limit, windowSec, label };
  }

  bucketsForOrg(overrides: identityV1.RateLimits, rateClass: RateClass | undefined): Bucket[] {
    const pick = (k: keyof LimitDefaults) => overrides[k] ?? this.defaults[k];
    const buckets = [
      this.bucket("org_minute", pick("per_minute"), "minute"),
      this.bucket("org_hour", pick("per_hour"), "hour"),
      this.bucket("org_day", pick("per_day"), "day"),
    ];
    const cls = rateClass ? CLASS_LIMIT[rateClass] : undefined;
    if (cls) buckets.push(this.bucket(`class_${rateClass}`, pick(cls.key), cls.window));
    return buckets;
  }

  bucketsForAnonymous(): Bucket[] {
    return [this.bucket("ip_minute", this.defaults.per_minute, "minute")];
  }

  /**
   * Gives back one point of an endpoint-specific limit (a report that failed), if it was counted
   * (at `countedAtMs`) in the window running now: a point from an earlier window is not owed.
   */
  async refund(key: string, rateClass: RateClass, countedAtMs: number): Promise<void> {
    if (!CLASS_LIMIT[rateClass]) return;
    for (const [id, limiter] of this.limiters) {
      if (!id.startsWith(`class_${rateClass}:`)) continue;
      const [, limit, windowSec] = id.split(":").map(Number) as [number, number, number];
      const res = await limiter.get(key);
      if (!res || res.consumedPoints <= 0) continue;
      const windowStart = Date.now() + res.msBeforeNext - windowSec * 1000;
      // The window's start is derived from a rounded time-to-reset: allow a second of slack, or a
      // point counted in the window's first millisecond would read as counted before it.
      if (countedAtMs < windowStart - 1000) continue;
      // Refused requests count too (consumed beyond the limit): the refund is of an accepted one.
      await limiter.reward(key, Math.max(0, res.consumedPoints - limit) + 1);
    }
  }

  /** The state of the bucket closest to its limit, spending nothing (a route that is not counted). */
  async peek(key: string, buckets: Bucket[]): Promise<RateState> {
    let tightest: RateState | undefined;
    for (const b of buckets) {
      const res = await this.limiter(b).get(key);
      const state: RateState = res
        ? {
            limit: b.limit,
            remaining: Math.max(0, b.limit - res.consumedPoints),
            resetUnix: Math.ceil((Date.now() + res.msBeforeNext) / 1000),
            windowSec: b.windowSec,
          }
        : {
            limit: b.limit,
            remaining: b.limit,
            resetUnix: Math.ceil(Date.now() / 1000) + b.windowSec,
            windowSec: b.windowSec,
          };
      if (!tightest || state.remaining < tightest.remaining) tightest = state;
    }
    return tightest!;
  }

  /**
   * Counts one request against every bucket. Resolves with the state of the bucket closest to
   * its limit (for the X-RateLimit-* headers), or throws the spec's 429 error, carrying that
   * state, when a bucket is exhausted.
   */
  async consume(key: string, buckets: Bucket[]): Promise<RateState> {
    let tightest: RateState | undefined;
    for (const b of buckets) {
      let res: RateLimiterRes;
      try {
        res = await this.limiter(b).consume(key, 1);
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
        const state: RateState = {
          limit: b.limit,
          remaining: 0,
          resetUnix: Math.ceil((Date.now() + rejection.msBeforeNext) / 1000),
          windowSec: b.windowSec,
        };
        throw new RateLimitedError(state, retryAfter, b.label);
      }
      const state: RateState = {
        limit: b.limit,
        remaining: Math.max(0, res.remainingPoints),
        resetUnix: Math.ceil((Date.now() + res.msBeforeNext) / 1000),
        windowSec: b.windowSec,
      };
      if (
        !tightest ||
        state.remaining < tightest.remaining ||
        (state.remaining === tightest.remaining && state.windowSec < tightest.windowSec)
      ) {
        tightest = state;
      }
    }
    return tightest!;
  }
}

export class RateLimitedError extends AppError {
  constructor(
    readonly state: RateState,
    readonly retryAfter: number,
    window: string,
  ) {
    super(
      "rate_limited",
      "RATE_LIMIT_EXCEEDED",
      `Rate limit of ${state.limit} requests per ${window} exceeded; retry after ${retryAfter}s`,
      {
        limit: state.limit,
        window,
        retry_after: retryAfter,
      },
    );
  }
}

export function rateHeaders(state: RateState): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(state.limit),
    "X-RateLimit-Remaining": String(state.remaining),
    "X-RateLimit-Reset": String(state.resetUnix),
    "X-RateLimit-Window": String(state.windowSec),
  };
}
