import { ProviderError, type ProviderErrorCode } from "./provider.js";

/**
 * Retrying a provider's API. Pure: the clock, the sleep and the randomness come in, so the
 * schedule is unit-tested without waiting. A wait the provider asked for (Retry-After, a rate
 * limit's reset) longer than maxDelayMs is not slept through here: the error goes up with its
 * retryAfterMs so the caller can reschedule the work and show the check as "pending, retrying".
 */
export interface RetryPolicy {
  /** Calls in all, the first included. */
  maxAttempts: number;
  /** The first backoff without a provider hint; doubled per attempt, with full jitter. */
  baseDelayMs: number;
  /** The longest wait slept in-process (a hint above it ends the retries). */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 30_000 };

export interface RetryEnv {
  sleep(ms: number): Promise<void>;
  /** In [0, 1). */
  random(): number;
}

export const systemRetryEnv: RetryEnv = {
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
};

const RETRYABLE: ReadonlySet<ProviderErrorCode> = new Set(["rate_limited", "unavailable"]);

/** The wait before attempt `attempt + 1` (attempt counts from 1), or null when not to retry. */
export function retryDelayMs(
  error: unknown,
  attempt: number,
  policy: RetryPolicy,
  random: () => number,
): number | null {
  if (!(error instanceof ProviderError) || !RETRYABLE.has(error.code)) return null;
  if (attempt >= policy.maxAttempts) return null;
  if (error.retryAfterMs !== undefined) return error.retryAfterMs <= policy.maxDelayMs ? error.retryAfterMs : null;
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.floor(random() * ceiling);
}

/** Calls fn until it succeeds, fails for good, or the attempts run out; the last error is thrown. */
export async function withRetry<T>(
  fn: () => Promise<T>,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
  env: RetryEnv = systemRetryEnv,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      const delay = retryDelayMs(error, attempt, policy, env.random);
      if (delay === null) throw error;
      await env.sleep(delay);
    }
  }
}

/**
 * Rescheduling a whole check through the bus once the in-process retries gave up (or the
 * provider asked for a longer wait): attempts of the delivery in all, and the backoff between
 * them (doubled per attempt, never shorter than the provider's hint, at most maxDelayMs).
 */
export const RESCHEDULE_POLICY: RetryPolicy = { maxAttempts: 6, baseDelayMs: 2_000, maxDelayMs: 60_000 };

/** When delivery attempt `attempt` failed: the wait before the next one, or null when not to retry. */
export function rescheduleDelayMs(error: unknown, attempt: number, policy: RetryPolicy = RESCHEDULE_POLICY) {
  if (!(error instanceof ProviderError) || !RETRYABLE.has(error.code)) return null;
  if (attempt >= policy.maxAttempts) return null;
  const backoff = policy.baseDelayMs * 2 ** (attempt - 1);
  return Math.min(policy.maxDelayMs, Math.max(backoff, error.retryAfterMs ?? 0));
}

export type HeaderBag = Record<string, string | number | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    return Array.isArray(value) ? value[0] : String(value);
  }
  return undefined;
}

/** Seconds since the epoch are told from a number of seconds to wait by their size (after 2001). */
const EPOCH_SECONDS_FLOOR = 1_000_000_000;

/**
 * How long the provider asked us to wait, from its headers: Retry-After (seconds or an HTTP
 * date; GitHub, GitLab, Gitea), then the rate limit's reset when nothing is left of it:
 * x-ratelimit-reset (GitHub: epoch seconds, with x-ratelimit-remaining) or RateLimit-Reset
 * (GitLab: epoch seconds, with RateLimit-Remaining; the IETF draft's delta seconds are read too).
 */
export function retryAfterFromHeaders(headers: HeaderBag, nowMs: number): number | undefined {
  const retryAfter = header(headers, "retry-after");
  if (retryAfter !== undefined) {
    const trimmed = retryAfter.trim();
    if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
    const date = Date.parse(trimmed);
    if (!Number.isNaN(date)) return Math.max(0, date - nowMs);
  }
  for (const [resetName, remainingName] of [
    ["x-ratelimit-reset", "x-ratelimit-remaining"],
    ["ratelimit-reset", "ratelimit-remaining"],
  ] as const) {
    const reset = header(headers, resetName);
    const remaining = header(headers, remainingName);
    if (reset === undefined || !/^\d+$/.test(reset.trim())) continue;
    if (remaining !== undefined && remaining.trim() !== "0") continue;
    const value = Number(reset.trim());
    return value >= EPOCH_SECONDS_FLOOR ? Math.max(0, value * 1000 - nowMs) : value * 1000;
  }
  return undefined;
}

/**
 * A provider's HTTP failure as a ProviderError: 401 (a revoked or expired credential) ->
 * unauthorized; 403 -> forbidden, unless it is a rate limit (GitHub's secondary limits answer 403
 * with Retry-After, its primary ones with x-ratelimit-remaining: 0) -> rate_limited; 404 ->
 * not_found; 429 -> rate_limited; 5xx (and no answer at all, status 0) -> unavailable; any other
 * 4xx -> invalid.
 */
export function providerErrorFromHttp(
  status: number,
  headers: HeaderBag,
  message: string,
  nowMs: number,
): ProviderError {
  const retryAfterMs = retryAfterFromHeaders(headers, nowMs);
  const code = httpStatusCode(status, headers, message, retryAfterMs);
  return new ProviderError(code, message, RETRYABLE.has(code) ? retryAfterMs : undefined, status || undefined);
}

function httpStatusCode(
  status: number,
  headers: HeaderBag,
  message: string,
  retryAfterMs: number | undefined,
): ProviderErrorCode {
  if (status === 401) return "unauthorized";
  if (status === 403) {
    const exhausted = header(headers, "x-ratelimit-remaining")?.trim() === "0";
    return exhausted || retryAfterMs !== undefined || /rate limit/i.test(message) ? "rate_limited" : "forbidden";
  }
  if (status === 404) return "not_found";
  if (status === 429) return "rate_limited";
  if (status === 0 || status >= 500) return "unavailable";
  return "invalid";
}
