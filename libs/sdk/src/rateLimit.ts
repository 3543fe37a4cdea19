// The X-RateLimit-* headers every Verdict response carries, for callers that pace many calls:
// the limit closest to running out for that kind of request, what is left of it, and when its
// window starts again.

export interface RateLimitState {
  /** Requests the window allows. */
  limit: number;
  /** Requests left in the current window. */
  remaining: number;
  /** When the window starts again, in milliseconds since the epoch (the header is Unix seconds). */
  resetAt: number;
  /** Length of the window in seconds. */
  windowSeconds: number;
}

/** The rate-limit state of a response, or undefined when its headers are missing or malformed. */
export function rateLimitFrom(headers: { get(name: string): string | null }): RateLimitState | undefined {
  const num = (name: string) => {
    const v = headers.get(name);
    return v !== null && /^\d+$/.test(v.trim()) ? Number(v.trim()) : undefined;
  };
  const limit = num("x-ratelimit-limit");
  const remaining = num("x-ratelimit-remaining");
  const reset = num("x-ratelimit-reset");
  const windowSeconds = num("x-ratelimit-window");
  if (limit === undefined || remaining === undefined || reset === undefined || windowSeconds === undefined)
    return undefined;
  return { limit, remaining, resetAt: reset * 1000, windowSeconds };
}
