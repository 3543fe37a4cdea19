import { createHash } from "node:crypto";
import { AppError } from "@verdict/kit";
import {
  ACCOUNT_LOCKOUT,
  ADDRESS_LOCKOUT,
  FAILURE_MEMORY_MS,
  lockoutMs,
  type LockoutPolicy,
} from "../../domain/lockout.js";
import type { IdentityDeps } from "../../deps.js";

// Sign-in throttles, by account (a hash of the email as typed, existing or not: the answer must
// not tell which addresses have accounts) and by client address.
export function throttleIds(email: string, clientIp: string): { account: string; address: string } {
  return { account: `account:${createHash("sha256").update(email).digest("hex")}`, address: `address:${clientIp}` };
}

/** Throws 429 AUTH_LOCKED_OUT while either throttle is locked. */
export async function assertNotLocked(deps: IdentityDeps, ids: { account: string; address: string }): Promise<void> {
  const now = deps.clock.now().getTime();
  for (const id of [ids.account, ids.address]) {
    const t = await deps.repo.throttle(id);
    if (t?.locked_until && Date.parse(t.locked_until) > now) {
      const retryAfter = Math.ceil((Date.parse(t.locked_until) - now) / 1000);
      throw new AppError("rate_limited", "AUTH_LOCKED_OUT", `Too many failed sign-ins; try again in ${retryAfter} s`, {
        retry_after: retryAfter,
        locked_until: t.locked_until,
      });
    }
  }
}

/** Counts a failure on both throttles; answers whether the account just got locked. */
export async function countFailure(deps: IdentityDeps, ids: { account: string; address: string }): Promise<boolean> {
  const account = await bump(deps, ids.account, ACCOUNT_LOCKOUT);
  await bump(deps, ids.address, ADDRESS_LOCKOUT);
  return account;
}

async function bump(deps: IdentityDeps, id: string, policy: LockoutPolicy): Promise<boolean> {
  const now = deps.clock.now();
  const t = await deps.repo.throttle(id);
  const stale = !t || now.getTime() - Date.parse(t.last_failure_at) > FAILURE_MEMORY_MS;
  const failures = stale ? 1 : t.failures + 1;
  const lockMs = lockoutMs(failures, policy);
  const lockedUntil = lockMs ? new Date(now.getTime() + lockMs).toISOString() : null;
  await deps.repo.recordFailedSignIn(
    { id, failures, last_failure_at: now.toISOString(), locked_until: lockedUntil },
    t !== null,
  );
  return lockMs > 0;
}

export async function clearAccount(deps: IdentityDeps, accountId: string): Promise<void> {
  await deps.repo.clearThrottle(accountId);
}
