// Session lifetimes: a session ends when unused for the idle timeout, and at the latest at the
// absolute timeout after sign-in, whichever comes first.
export interface SessionPolicy {
  idleMs: number;
  absoluteMs: number;
}

/** A sign-in waiting for its second factor lasts this long. */
export const MFA_CHALLENGE_TTL_MS = 5 * 60_000;

/** last_seen_at is written at most this often (every request would be a write). */
export const LAST_SEEN_GRANULARITY_MS = 60_000;

export function idleExpiry(lastSeenAt: string, policy: SessionPolicy): string {
  return new Date(Date.parse(lastSeenAt) + policy.idleMs).toISOString();
}

export function sessionEnded(
  session: { last_seen_at: string; expires_at: string },
  now: Date,
  policy: SessionPolicy,
): boolean {
  return (
    now.getTime() >= Date.parse(session.expires_at) || now.getTime() >= Date.parse(session.last_seen_at) + policy.idleMs
  );
}
