// Paging a list newest first: the opaque cursor (the last id of the page before; ids are
// time-sortable, so "ids below it" stays right while new records arrive) and the since/until
// window. One implementation for every list (evaluations, audit events), so each answers bad
// paging input the same way.
import { errors, type FieldError } from "./errors.js";
import { isId, type IdPrefix } from "./ids.js";

const CURSOR_VERSION = 1;

export function encodeCursor(lastId: string): string {
  return Buffer.from(JSON.stringify({ v: CURSOR_VERSION, id: lastId }), "utf8").toString("base64url");
}

/** The last id of the previous page, or undefined when the cursor is not one of ours for `prefix` ids. */
export function decodeCursor(cursor: string, prefix: IdPrefix): string | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { v?: unknown; id?: unknown };
    return parsed.v === CURSOR_VERSION && typeof parsed.id === "string" && isId(prefix, parsed.id)
      ? parsed.id
      : undefined;
  } catch {
    return undefined;
  }
}

// A time zone is required with a time: without one, the instant would depend on the server.
// The offset with or without its colon (ISO 8601's basic form, +0530), as the REST schemas say.
const ISO_RE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2}))?$/;

/** Normalizes an ISO 8601 timestamp to the stored form (UTC, milliseconds), comparable as text. */
export function toInstant(value: string): string | undefined {
  if (!ISO_RE.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

export interface PageWindowInput {
  since?: string;
  until?: string;
  cursor?: string;
}

export interface PageWindow {
  /** >= since */
  since?: string;
  /** < until */
  until?: string;
  /** Only ids below this one (the previous page's last). */
  beforeId?: string;
}

export const CURSOR_NOT_OURS: FieldError = {
  field: "cursor",
  code: "INVALID_FORMAT",
  message: "cursor is not a next_cursor returned by this API",
};

/** The window's bounds and cursor, each checked; problems name the field. */
export function parsePageWindow(
  input: PageWindowInput,
  idPrefix: IdPrefix,
): { window: PageWindow; problems: FieldError[] } {
  const problems: FieldError[] = [];
  const window: PageWindow = {};
  for (const field of ["since", "until"] as const) {
    const value = input[field];
    if (!value) continue;
    const instant = toInstant(value);
    if (instant) window[field] = instant;
    else
      problems.push({
        field,
        code: "INVALID_FORMAT",
        message: `${field} must be an ISO 8601 date or date-time with a time zone, e.g. 2026-01-31T00:00:00Z`,
      });
  }
  if (input.cursor) {
    const beforeId = decodeCursor(input.cursor, idPrefix);
    if (beforeId) window.beforeId = beforeId;
    else problems.push(CURSOR_NOT_OURS);
  }
  return { window, problems };
}

/**
 * Throws for a list's input problems: a cursor can be shaped right (base64url) and still not be
 * one of ours, which the published schema cannot say, so that is a 422; every other problem is
 * a schema violation, a 400.
 */
export function assertListInput(problems: FieldError[]): void {
  const shape = problems.filter((p) => p.field !== "cursor");
  if (shape.length) throw errors.validation(shape);
  if (problems.length) throw errors.unprocessable(problems);
}

/** A cursor that names no record of the organization was not issued to it, however well it is shaped: 422. */
export function foreignCursor(): never {
  throw errors.unprocessable([CURSOR_NOT_OURS]);
}
