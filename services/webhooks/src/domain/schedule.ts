// When to try a message again, and what an attempt's outcome means.

/**
 * Seconds to wait before each retry, after the first attempt: 5 s, 5 min, 30 min, 2 h, 5 h,
 * 10 h, 14 h, 20 h, 24 h. Ten attempts over about 75 hours (a little over three days), so a
 * receiver that is down for a weekend still gets every message.
 */
export const DEFAULT_RETRY_SCHEDULE = [5, 300, 1_800, 7_200, 18_000, 36_000, 50_400, 72_000, 86_400];
/** The longest a Retry-After header may postpone a retry. */
export const MAX_RETRY_AFTER_SECONDS = 86_400;
const MAX_SCHEDULE_ENTRIES = 30;

/** Parses `VERDICT_WEBHOOK_RETRY_SCHEDULE` ("5,300,1800"); throws a readable message when bad. */
export function parseRetrySchedule(text: string): number[] {
  const parts = text.split(",").map((p) => p.trim());
  if (!parts.length || parts.length > MAX_SCHEDULE_ENTRIES)
    throw new Error(`must list 1 to ${MAX_SCHEDULE_ENTRIES} delays`);
  return parts.map((p) => {
    if (!/^\d+(\.\d+)?$/.test(p)) throw new Error(`'${p}' is not a number of seconds`);
    const n = Number(p);
    if (n <= 0 || n > 7 * 86_400) throw new Error(`'${p}' must be more than 0 and at most 604800 seconds`);
    return n;
  });
}

/**
 * Milliseconds before retry number `retry` (1 = the first retry), with ±20% jitter so that the
 * messages of one outage do not all come back at the same instant; undefined when the schedule
 * is exhausted. `random` is in [0, 1).
 */
export function retryDelayMs(schedule: number[], retry: number, random: number): number | undefined {
  const base = schedule[retry - 1];
  if (base === undefined) return undefined;
  return Math.round(base * 1000 * (0.8 + 0.4 * random));
}

/** A Retry-After header in seconds (delta-seconds or an HTTP date), capped; undefined if absent or bad. */
export function parseRetryAfter(value: string | undefined, now: Date): number | undefined {
  if (!value) return undefined;
  const v = value.trim();
  let seconds: number;
  if (/^\d+$/.test(v)) seconds = Number(v);
  else {
    const at = Date.parse(v);
    if (Number.isNaN(at)) return undefined;
    seconds = Math.max(0, Math.ceil((at - now.getTime()) / 1000));
  }
  return Math.min(seconds, MAX_RETRY_AFTER_SECONDS);
}

export type AttemptVerdict =
  | { kind: "succeeded" }
  /** 410 Gone: the receiver asks never to be called again. */
  | { kind: "gone" }
  | { kind: "retry" };

/** 2xx is success; 410 disables the endpoint; everything else (3xx included: no redirects) retries. */
export function judge(statusCode: number | undefined): AttemptVerdict {
  if (statusCode !== undefined && statusCode >= 200 && statusCode < 300) return { kind: "succeeded" };
  if (statusCode === 410) return { kind: "gone" };
  return { kind: "retry" };
}

/** The next attempt's time, honouring Retry-After when it asks for longer than the schedule. */
export function nextAttemptAt(now: Date, delayMs: number, retryAfterSeconds: number | undefined): Date {
  const wait = Math.max(delayMs, (retryAfterSeconds ?? 0) * 1000);
  return new Date(now.getTime() + wait);
}

/** "3 days", "5 hours", "12 minutes", "4 seconds". */
export function formatDuration(ms: number): string {
  const units: [number, string][] = [
    [86_400_000, "day"],
    [3_600_000, "hour"],
    [60_000, "minute"],
    [1_000, "second"],
  ];
  for (const [size, name] of units) {
    const n = Math.floor(ms / size);
    if (n >= 1 || size === 1_000) {
      const count = Math.max(n, 1);
      return `${count} ${name}${count === 1 ? "" : "s"}`;
    }
  }
  return "1 second";
}
