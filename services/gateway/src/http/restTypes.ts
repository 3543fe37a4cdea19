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
/** A date, or a date-time with its time zone (the audit log's filters refuse a time without one). */
export const ISO_DATE_OR_ZONED = z
  .string()
  .regex(
    /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):?[0-5]\d))?$/,
    { message: "must be an ISO 8601 date or a date-time with a time zone" },
  )
  .meta({ description: "ISO 8601 date (2026-01-31) or date-time with a time zone (2026-01-31T12:00:00Z)" });
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

/** How deeply arrays and objects nest in a JSON value (a scalar: 0), counted up to limit + 1. */
export function nestingDepth(value: unknown, limit: number): number {
  if (value === null || typeof value !== "object") return 0;
  if (limit < 0) return 1;
  let deepest = 0;
  for (const child of Object.values(value)) {
    deepest = Math.max(deepest, nestingDepth(child, limit - 1));
    if (deepest > limit) break;
  }
  return 1 + deepest;
}

/**
 * A google.protobuf.Struct field: a JSON object whose values nest at most `maxDepth` levels when
 * given (protobuf's Struct has a recursion limit; a deeper value is refused before the service).
 */
export function struct(name: string, maxDepth?: number) {
  const schema = z.record(z.string(), z.unknown());
  if (maxDepth === undefined) return schema;
  return schema.superRefine((value, ctx) => {
    for (const [key, child] of Object.entries(value)) {
      if (nestingDepth(child, maxDepth) > maxDepth) {
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: `${name}.${key} is nested deeper than ${maxDepth} levels`,
          params: { code: "MAX_SIZE_EXCEEDED", max: maxDepth },
        });
      }
    }
  });
}

/**
 * JSON may name a key of a Struct field `__proto__`; the schema's output cannot hold that key
 * (zod drops it rather than carry it as a prototype, and so would protobuf's Struct.wrap), so it is
 * refused here, as the service refuses any key it does not know, rather than silently dropped.
 */
export function refuseProtoKey(rawBody: unknown, field: string): void {
  const value = (rawBody as Record<string, unknown> | undefined)?.[field];
  if (value && typeof value === "object" && Object.hasOwn(value, "__proto__")) {
    throw errors.unprocessable([
      {
        field: `${field}.__proto__`,
        code: "INVALID_FORMAT",
        message: `${field}.__proto__ is not a key this API takes`,
      },
    ]);
  }
}

/** A string of at most `max` UTF-8 bytes (a length rule counts characters). */
export function maxBytes(schema: z.ZodString, field: string, max: number) {
  return schema.refine((v) => Buffer.byteLength(v, "utf8") <= max, {
    message: `${field} must be at most ${max} bytes (UTF-8)`,
    params: { code: "MAX_SIZE_EXCEEDED", max },
  });
}

/** Verdict's public origin: the API's base URL (…/v1) without its /v1. */
export function publicOrigin(apiBaseUrl: string): string {
  return apiBaseUrl.replace(/\/v1\/?$/, "");
}

/** A path (with its query) on Verdict's public address, as an absolute URL. */
export function publicUrl(apiBaseUrl: string, path: string): string {
  return `${publicOrigin(apiBaseUrl)}${path}`;
}

/** A service's client, or 503 where a distributed install does not deploy it (no address for it). */
export function deployed<T>(client: T | undefined, absent: string): T {
  if (!client) throw errors.unavailable(absent);
  return client;
}
