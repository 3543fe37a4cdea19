// The overview's figures: pass/fail and violations per day or week, top policies and top
// repositories over a range. The store groups (see usecases/evaluationStats); this turns the
// grouped rows into the answer: every bucket of the range present (zero-filled), days in UTC,
// weeks starting on Monday.
import type { FieldError } from "@verdict/kit";
import { toInstant } from "./listQuery.js";

export const STATS_BUCKETS = ["day", "week"] as const;
export type StatsBucket = (typeof STATS_BUCKETS)[number];

/** The longest range one request may cover. */
export const MAX_STATS_DAYS = 366;
export const DEFAULT_STATS_DAYS = 30;
export const TOP_N = 10;

const DAY_MS = 86_400_000;

export interface StatsRange {
  /** created_at >= since (an instant, UTC). */
  since: string;
  /** created_at < until. */
  until: string;
  bucket: StatsBucket;
}

/** Checks and fills in a request's range; `now` ends it when `until` is not given. */
export function parseStatsInput(
  input: { since?: string; until?: string; bucket?: string },
  now: Date,
): { range?: StatsRange; problems: FieldError[] } {
  const problems: FieldError[] = [];
  const instant = (field: "since" | "until") => {
    const value = input[field];
    if (!value) return undefined;
    const parsed = toInstant(value);
    if (!parsed)
      problems.push({
        field,
        code: "INVALID_FORMAT",
        message: `${field} must be an ISO 8601 date or date-time with a time zone, e.g. 2026-01-31T00:00:00Z`,
      });
    return parsed;
  };
  const until = instant("until") ?? now.toISOString();
  const since = instant("since") ?? new Date(Date.parse(until) - DEFAULT_STATS_DAYS * DAY_MS).toISOString();
  const bucket = (input.bucket || "day") as StatsBucket;
  if (!STATS_BUCKETS.includes(bucket))
    problems.push({
      field: "bucket",
      code: "INVALID_ENUM",
      message: `bucket must be one of: ${STATS_BUCKETS.join(", ")}`,
    });
  if (problems.length) return { problems };
  if (since >= until) problems.push({ field: "since", code: "INVALID_FORMAT", message: "since must be before until" });
  else if (Date.parse(until) - Date.parse(since) > MAX_STATS_DAYS * DAY_MS)
    problems.push({
      field: "since",
      code: "INVALID_FORMAT",
      message: `the range may cover at most ${MAX_STATS_DAYS} days`,
    });
  return problems.length ? { problems } : { range: { since, until, bucket }, problems };
}

/** The bucket a UTC day (YYYY-MM-DD) falls in: itself, or the Monday of its week. */
export function bucketOf(day: string, bucket: StatsBucket): string {
  if (bucket === "day") return day;
  const d = new Date(`${day}T00:00:00Z`);
  const sinceMonday = (d.getUTCDay() + 6) % 7;
  return new Date(d.getTime() - sinceMonday * DAY_MS).toISOString().slice(0, 10);
}

/** Every bucket start of the range, oldest first. */
export function bucketsOf(range: StatsRange): string[] {
  const out: string[] = [];
  const last = new Date(Date.parse(range.until) - 1).toISOString().slice(0, 10);
  for (let t = Date.parse(`${range.since.slice(0, 10)}T00:00:00Z`); ; t += DAY_MS) {
    const day = new Date(t).toISOString().slice(0, 10);
    const b = bucketOf(day, range.bucket);
    if (out[out.length - 1] !== b) out.push(b);
    if (day >= last) break;
  }
  return out;
}

export interface DayRow {
  day: string;
  passed: boolean | null;
  count: number;
  violations: number;
}

export interface StatsBucketFigures {
  start: string;
  evaluations: number;
  passed: number;
  failed: number;
  violations: number;
}

export interface EvaluationStats {
  since: string;
  until: string;
  bucket: StatsBucket;
  totals: Omit<StatsBucketFigures, "start">;
  buckets: StatsBucketFigures[];
  top_policies: { policy_id: string; violations: number }[];
  top_repositories: { repository: string; evaluations: number; failed: number; violations: number }[];
}

export function assembleStats(
  range: StatsRange,
  days: DayRow[],
  policies: { policy_id: string; violations: number }[],
  repositories: { repository: string; passed: boolean | null; count: number; violations: number }[],
): EvaluationStats {
  const buckets = new Map(
    bucketsOf(range).map((start) => [start, { start, evaluations: 0, passed: 0, failed: 0, violations: 0 }]),
  );
  const totals = { evaluations: 0, passed: 0, failed: 0, violations: 0 };
  for (const row of days) {
    const b = buckets.get(bucketOf(row.day, range.bucket));
    for (const f of b ? [b, totals] : [totals]) {
      f.evaluations += row.count;
      if (row.passed === true) f.passed += row.count;
      if (row.passed === false) f.failed += row.count;
      f.violations += row.violations;
    }
  }
  const repos = new Map<string, EvaluationStats["top_repositories"][number]>();
  for (const row of repositories) {
    const r = repos.get(row.repository) ?? { repository: row.repository, evaluations: 0, failed: 0, violations: 0 };
    r.evaluations += row.count;
    if (row.passed === false) r.failed += row.count;
    r.violations += row.violations;
    repos.set(row.repository, r);
  }
  return {
    since: range.since,
    until: range.until,
    bucket: range.bucket,
    totals,
    buckets: [...buckets.values()],
    top_policies: [...policies]
      .sort((a, b) => b.violations - a.violations || a.policy_id.localeCompare(b.policy_id))
      .slice(0, TOP_N),
    top_repositories: [...repos.values()]
      .sort(
        (a, b) =>
          b.violations - a.violations || b.evaluations - a.evaluations || a.repository.localeCompare(b.repository),
      )
      .slice(0, TOP_N),
  };
}
