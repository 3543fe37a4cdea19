// The spec's retry guidance as a pure decision: 429 waits for Retry-After; 500 and 503 back off
// exponentially (with jitter); connection failures back off too; every other status (400, 401,
// 403, 404, 409, 422, …) is never retried, because repeating it cannot change the answer.

export interface RetryPolicy {
  /** Attempts after the first one. */
  maxRetries: number;
  /** First backoff delay; doubled on each retry. */
  baseDelayMs: number;
  /** No single wait is longer than this; a longer Retry-After gives up instead. */
  maxDelayMs: number;
  /** Attempts after a connection failure (refused, DNS, timeout): fewer, a server that is down stays down. */
  maxConnectionRetries: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxRetries: 4,
  baseDelayMs: 500,
  maxDelayMs: 60_000,
  maxConnectionRetries: 2,
};

/**
 * How long to wait before attempt `retry` (1 = the first retry) after `outcome`, or null when the
 * request must not be retried. `random` is in [0, 1) (jitter).
 */
export function retryDelay(
  outcome: { status: number; retryAfter: string | null } | { connectionError: true },
  retry: number,
  policy: RetryPolicy,
  random: number,
): number | null {
  const backoff = () => Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1) * (0.5 + random));
  if ("connectionError" in outcome) return retry > policy.maxConnectionRetries ? null : backoff();
  if (retry > policy.maxRetries) return null;
  if (outcome.status === 429) {
    const seconds = parseRetryAfter(outcome.retryAfter);
    if (seconds === null) return backoff();
    const ms = seconds * 1000;
    return ms > policy.maxDelayMs ? null : ms;
  }
  if (outcome.status === 500 || outcome.status === 503) return backoff();
  return null;
}

/** Retry-After is delta-seconds (what Verdict sends) or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}
