// The building blocks of the REST contract that both the hand-written schemas (schemas.ts) and
// the ones scripts/rest-gen.mjs generates from the proto files (src/gen/*.rest.ts) use.
import { errors } from "@verdict/kit";
import { z } from "zod";

const ISO_OR_DATE_RE =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):?[0-5]\d)?)?$/;
/** The day exists in its month (Date.parse rolls 2026-02-30 over to March 2 instead of failing). */
export function isRealDay(value: string): boolean {
  const [y, m, d] = value.slice(0, 10).split("-").map(Number) as [number, number, number];
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate() && !Number.isNaN(Date.parse(value));
}
/**
 * The schema's pattern cannot say which days a month has: 2026-02-30 matches it (and Date.parse
 * would roll it over to March 2), so it is refused here, as a 422.
 */
export function refuseImpossibleDays(query: { since?: string; until?: string }): void {
  const impossible = (["since", "until"] as const).filter((f) => query[f] !== undefined && !isRealDay(query[f]!));
  if (impossible.length) {
    throw errors.unprocessable(
      impossible.map((field) => ({
        field,
        code: "INVALID_FORMAT",
        message: "must be an ISO 8601 date or date-time of a day that exists",
      })),
    );
  }
}
/** A date or date-time query parameter (since, until), as every list takes it. */
export const ISO_OR_DATE = z
  .string()
  .regex(ISO_OR_DATE_RE, { message: "must be an ISO 8601 date or date-time" })
  .meta({ description: "ISO 8601 date (2026-01-31) or date-time (2026-01-31T12:00:00Z)" });
/** A boolean query parameter: the text true or false. */
export const BOOL_QUERY = z.enum(["true", "false"]).transform((v) => v === "true");

/** A date query parameter as the service takes it: a date-time (a date alone is its midnight, server time). */
export function dateTime(value: string | undefined): string | undefined {
  return value === undefined ? undefined : new Date(value).toISOString();
}
