import { createHash } from "node:crypto";
import { AppError } from "@verdict/kit";
import {
  ACCOUNT_LOCKOUT,
  ADDRESS_LOCKOUT,
  countAttempt,
  refundAttempt,
  type LockoutPolicy,
  type ThrottleState,
} from "../../domain/lockout.js";
import type { IdentityDeps } from "../../deps.js";

// Sign-in throttles, by account (a hash of the email as typed, existing or not: the answer must
// not tell which addresses have accounts) and by client address.
export interface ThrottleIds {
  account: string;
  address: string;
}

export function throttleIds(email: string, clientIp: string): ThrottleIds {
  return { account: `account:${createHash("sha256").update(email).digest("hex")}`, address: `address:${clientIp}` };
}

/**
 * One credential check (a password, a second-factor code, a passkey) counted before it is made:
 * concurrent checks each take their own place in the count with a compare-and-set, so no more
 * checks run than the lockout allows however many arrive at once. The attempt then ends as a
 * failure (it stays counted), a whole sign-in (the account's count cleared), or a check that
 * passed short of one (only its own place given back: wrong second-factor codes keep counting
 * across password rounds).
 */
export interface Attempt {
  /** Whether this attempt, if it fails, locked the account. */
  locksAccount: boolean;
  /** A whole sign-in succeeded: the account's count is cleared, the address's attempt given back. */
  signInCompleted(): Promise<void>;
  /**
   * The check passed but is no whole sign-in (a password with a second factor to come, an
   * invitation's or reset link's proof): only this attempt is given back, earlier failures stay.
   */
  checkPassed(): Promise<void>;
}

/** Most compare-and-set rounds before giving up (then the attempt is refused as locked). */
const MAX_ROUNDS = 200;

const lockedOut = (retryAfter: number, lockedUntil: string) =>
  new AppError("rate_limited", "AUTH_LOCKED_OUT", `Too many failed sign-ins; try again in ${retryAfter} s`, {
    retry_after: retryAfter,
    locked_until: lockedUntil,
  });

/** Counts an attempt on both throttles before the check; 429 AUTH_LOCKED_OUT when either is locked. */
export async function startAttempt(deps: IdentityDeps, ids: ThrottleIds): Promise<Attempt> {
  await count(deps, ids.address, ADDRESS_LOCKOUT);
  let locksAccount: boolean;
  try {
    locksAccount = await count(deps, ids.account, ACCOUNT_LOCKOUT);
  } catch (err) {
    await refund(deps, ids.address, ADDRESS_LOCKOUT);
    throw err;
  }
  return {
    locksAccount,
    signInCompleted: async () => {
      await deps.throttles.clear(ids.account);
      await refund(deps, ids.address, ADDRESS_LOCKOUT);
    },
    checkPassed: async () => {
      await refund(deps, ids.account, ACCOUNT_LOCKOUT);
      await refund(deps, ids.address, ADDRESS_LOCKOUT);
    },
  };
}

/** Takes a place in a throttle's count; answers whether it locks. Throws while it is locked. */
async function count(deps: IdentityDeps, id: string, policy: LockoutPolicy): Promise<boolean> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const now = deps.clock.now();
    const prev = await deps.throttles.find(id);
    const next = countAttempt(prev, now.getTime(), policy);
    if (next.kind === "locked") throw lockedOut(next.retryAfterSeconds, prev!.locked_until!);
    if (await deps.throttles.write(prev, { id, ...toRecord(next.state) })) return next.locks;
  }
  throw lockedOut(1, deps.clock.now().toISOString());
}

/** Gives one place back (a check that turned out right); nothing when the count was reset meanwhile. */
async function refund(deps: IdentityDeps, id: string, policy: LockoutPolicy): Promise<void> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const prev = await deps.throttles.find(id);
    if (!prev) return;
    const next = refundAttempt(prev, policy);
    if (await deps.throttles.write(prev, { id, ...toRecord(next) })) return;
  }
}

function toRecord(s: ThrottleState): { failures: number; last_failure_at: string; locked_until: string | null } {
  return { failures: s.failures, last_failure_at: s.last_failure_at, locked_until: s.locked_until };
}
