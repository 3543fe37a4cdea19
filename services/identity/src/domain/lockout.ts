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
