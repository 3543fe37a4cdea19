// Progressive lockout of sign-in: a few free failures, then each failure doubles the wait, up to
// a ceiling. Counted per account and per client address (an address gets more free failures: an
// office shares one). A success clears the account's count.
export interface LockoutPolicy {
  freeFailures: number;
  baseMs: number;
  maxMs: number;
}

export const ACCOUNT_LOCKOUT: LockoutPolicy = { freeFailures: 5, baseMs: 30_000, maxMs: 15 * 60_000 };
export const ADDRESS_LOCKOUT: LockoutPolicy = { freeFailures: 20, baseMs: 30_000, maxMs: 15 * 60_000 };

/** How long to lock after the given number of consecutive failures (0: not locked). */
export function lockoutMs(failures: number, policy: LockoutPolicy): number {
  if (failures < policy.freeFailures) return 0;
  return Math.min(policy.baseMs * 2 ** (failures - policy.freeFailures), policy.maxMs);
}

/** Failures older than a day are forgotten: the count starts again. */
export const FAILURE_MEMORY_MS = 86_400_000;

/** A throttle's count, as stored. */
export interface ThrottleState {
  failures: number;
  last_failure_at: string;
  locked_until: string | null;
}

export type CountedAttempt =
  { kind: "locked"; retryAfterSeconds: number } | { kind: "counted"; state: ThrottleState; locks: boolean };

/**
 * An attempt counted before its check is made: refused while the throttle is locked, else the
 * next state (one more failure, locked when that makes too many) and whether it locks.
 */
export function countAttempt(prev: ThrottleState | null, nowMs: number, policy: LockoutPolicy): CountedAttempt {
  if (prev?.locked_until && Date.parse(prev.locked_until) > nowMs)
    return { kind: "locked", retryAfterSeconds: Math.ceil((Date.parse(prev.locked_until) - nowMs) / 1000) };
  const stale = !prev || nowMs - Date.parse(prev.last_failure_at) > FAILURE_MEMORY_MS;
  const failures = stale ? 1 : prev.failures + 1;
  const lockMs = lockoutMs(failures, policy);
  return {
    kind: "counted",
    state: {
      failures,
      last_failure_at: new Date(nowMs).toISOString(),
      locked_until: lockMs ? new Date(nowMs + lockMs).toISOString() : null,
    },
    locks: lockMs > 0,
  };
}

/** One counted attempt given back (its check passed): one failure fewer, unlocked when that is few enough. */
export function refundAttempt(prev: ThrottleState, policy: LockoutPolicy): ThrottleState {
  const failures = Math.max(0, prev.failures - 1);
  return { ...prev, failures, locked_until: lockoutMs(failures, policy) > 0 ? prev.locked_until : null };
}
