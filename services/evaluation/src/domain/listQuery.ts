// Listing evaluations: filters, page size and the opaque cursor. Ids are time-sortable, so a
// page is "ids below the last one seen", which stays correct while new evaluations arrive.
import { isId, type FieldError } from "@verdict/kit";
import { EVALUATION_STATUSES, type EvaluationStatus } from "./evaluation.js";

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

const CURSOR_VERSION = 1;

export function encodeCursor(lastId: string): string {
  return Buffer.from(JSON.stringify({ v: CURSOR_VERSION, id: lastId }), "utf8").toString("base64url");
}

/** The last id of the previous page, or undefined when the cursor is not one of ours. */
export function decodeCursor(cursor: string): string | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { v?: unknown; id?: unknown };
    return parsed.v === CURSOR_VERSION && typeof parsed.id === "string" && isId("eval", parsed.id)
      ? parsed.id
      : undefined;
  } catch {
    return undefined;
  }
}

// A time zone is required with a time: without one, the instant would depend on the server.
const ISO_RE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/** Normalizes an ISO 8601 timestamp to the stored form (UTC, milliseconds), comparable as text. */
export function toInstant(value: string): string | undefined {
  if (!ISO_RE.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

export interface ListInput {
  repository?: string;
  status?: string;
  passed?: boolean;
  since?: string;
  until?: string;
  /** 0 means the default page size. */
  limit: number;
  cursor?: string;
}

export interface ListQuery {
  repository?: string;
  status?: EvaluationStatus;
  passed?: boolean;
  /** created_at >= since */
  since?: string;
  /** created_at < until */
  until?: string;
  limit: number;
  /** Only ids below this one (the previous page's last). */
  beforeId?: string;
}

export function parseListInput(input: ListInput): { query: ListQuery; problems: FieldError[] } {
  const problems: FieldError[] = [];
  const query: ListQuery = { limit: input.limit || DEFAULT_PAGE_SIZE };
  if (input.limit < 0)
    problems.push({ field: "limit", code: "MIN_SIZE_REQUIRED", message: "limit must be at least 1", min: 1 });
  if (input.limit > MAX_PAGE_SIZE)
    problems.push({
      field: "limit",
      code: "MAX_SIZE_EXCEEDED",
      message: `limit must be at most ${MAX_PAGE_SIZE}`,
      max: MAX_PAGE_SIZE,
    });
  if (input.repository) query.repository = input.repository;
  if (input.status) {
    if ((EVALUATION_STATUSES as readonly string[]).includes(input.status))
      query.status = input.status as EvaluationStatus;
    else
      problems.push({
        field: "status",
        code: "INVALID_ENUM",
        message: `status must be one of: ${EVALUATION_STATUSES.join(", ")}`,
      });
  }
  if (input.passed !== undefined) query.passed = input.passed;
  for (const field of ["since", "until"] as const) {
    const value = input[field];
    if (!value) continue;
    const instant = toInstant(value);
    if (instant) query[field] = instant;
    else
      problems.push({
        field,
        code: "INVALID_FORMAT",
        message: `${field} must be an ISO 8601 date or date-time with a time zone, e.g. 2026-01-31T00:00:00Z`,
      });
  }
  if (input.cursor) {
    const beforeId = decodeCursor(input.cursor);
    if (beforeId) query.beforeId = beforeId;
    else
      problems.push({
        field: "cursor",
        code: "INVALID_FORMAT",
        message: "cursor is not a next_cursor returned by this API",
      });
  }
  return { query, problems };
}
