// The identity service's configuration variables, shared by the all-in-one process and the
// service's own entry point (distributed mode).
import { z } from "zod";

const minutes = (fallback: number) => z.coerce.number().int().min(1).max(525_600).default(fallback);

export const identityConfig = z.object({
  /** A session unused this long ends (sign in again). */
  VERDICT_SESSION_IDLE_TIMEOUT_MINUTES: minutes(30),
  /** A session ends this long after sign-in, however busy. */
  VERDICT_SESSION_ABSOLUTE_TIMEOUT_MINUTES: minutes(12 * 60),
});

export type IdentityConfig = z.infer<typeof identityConfig>;

export function sessionPolicy(config: IdentityConfig): { idleMs: number; absoluteMs: number } {
  return { idleMs: config.VERDICT_SESSION_IDLE_TIMEOUT_MINUTES * 60_000, absoluteMs: config.VERDICT_SESSION_ABSOLUTE_TIMEOUT_MINUTES * 60_000 };
}
