// Report date ranges: explicit {start, end} calendar dates (UTC, both inclusive) or "<n>d", the
// last n days ending today (what the MCP generate_evidence tool sends).
import type { FieldError } from "@verdict/kit";

export interface DateRange {
  /** YYYY-MM-DD, inclusive. */
  start: string;
  /** YYYY-MM-DD, inclusive. */
  end: string;
}

/** The longest range a report covers: past that, evidence is an archive question. */
export const MAX_RANGE_DAYS = 366;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const LAST_DAYS = /^([1-9]\d{0,3})d$/;
const DAY_MS = 86_400_000;

export function isCalendarDate(value: string): boolean {
  if (!DATE.test(value)) return false;
  const d = new Date(`${value}T00:00:00.000Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

export const today = (now: Date) => now.toISOString().slice(0, 10);

/** Checks a range against the calendar and the clock. `field` prefixes the error paths. */
export function checkDateRange(range: DateRange, now: Date, field = "date_range"): FieldError[] {
  const problems: FieldError[] = [];
  for (const key of ["start", "end"] as const) {
    if (!isCalendarDate(range[key]))
      problems.push({
        field: `${field}.${key}`,
        code: "INVALID_FORMAT",
        message: "Must be a calendar date YYYY-MM-DD",
      });
    else if (range[key] > today(now))
      problems.push({ field: `${field}.${key}`, code: "INVALID_FORMAT", message: "Must not be in the future" });
  }
  if (problems.length > 0) return problems;
  if (range.end < range.start)
    return [{ field: `${field}.end`, code: "INVALID_FORMAT", message: "Must not be before date_range.start" }];
  const days = daysIn(range);
  if (days > MAX_RANGE_DAYS)
    return [
      {
        field: `${field}.end`,
        code: "MAX_SIZE_EXCEEDED",
        message: `A report covers at most ${MAX_RANGE_DAYS} days`,
        max: MAX_RANGE_DAYS,
      },
    ];
  return [];
}

/** "90d" -> the 90 days ending today (today included). */
export function parseLastDays(
  value: string,
  now: Date,
  field = "date_range",
): { range?: DateRange; problems: FieldError[] } {
  const m = LAST_DAYS.exec(value);
  if (!m) return { problems: [{ field, code: "INVALID_FORMAT", message: "Must be <n>d, the last n days (e.g. 90d)" }] };
  const n = Number(m[1]);
  if (n > MAX_RANGE_DAYS)
    return {
      problems: [
        {
          field,
          code: "MAX_SIZE_EXCEEDED",
          message: `A report covers at most ${MAX_RANGE_DAYS} days`,
          max: MAX_RANGE_DAYS,
        },
      ],
    };
  const end = today(now);
  const start = new Date(Date.parse(`${end}T00:00:00.000Z`) - (n - 1) * DAY_MS).toISOString().slice(0, 10);
  return { range: { start, end }, problems: [] };
}

export function daysIn(range: DateRange): number {
  return Math.round((Date.parse(`${range.end}T00:00:00Z`) - Date.parse(`${range.start}T00:00:00Z`)) / DAY_MS) + 1;
}

/** The half-open instant interval [from, to) a date range covers, as ISO strings. */
export function instants(range: DateRange): { from: string; to: string } {
  return {
    from: `${range.start}T00:00:00.000Z`,
    to: new Date(Date.parse(`${range.end}T00:00:00.000Z`) + DAY_MS).toISOString(),
  };
}
