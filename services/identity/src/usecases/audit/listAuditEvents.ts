import { errors, isId } from "@verdict/kit";
import { isAuditType } from "../../domain/audit.js";
import type { IdentityDeps } from "../../deps.js";
import type { AuditRecord } from "../../repo.js";
import type { Filter, Operators } from "@verdict/store";

export interface ListAuditEventsCommand {
  organizationId: string;
  /** An actor id: user_…, key_… */
  actor?: string;
  type?: string;
  /** ISO 8601, inclusive / exclusive. */
  since?: string;
  until?: string;
  limit: number;
  cursor?: string;
}

const CURSOR_VERSION = 1;

export function encodeAuditCursor(lastId: string): string {
  return Buffer.from(JSON.stringify({ v: CURSOR_VERSION, id: lastId }), "utf8").toString("base64url");
}

export function decodeAuditCursor(cursor: string): string | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { v?: unknown; id?: unknown };
    return parsed.v === CURSOR_VERSION && typeof parsed.id === "string" && isId("aud", parsed.id)
      ? parsed.id
      : undefined;
  } catch {
    return undefined;
  }
}

function instant(value: string, field: string): string {
  const ms = Date.parse(value);
  if (Number.isNaN(ms))
    throw errors.unprocessable([
      { field, code: "INVALID_FORMAT", message: `${field} must be an ISO 8601 date or date-time` },
    ]);
  return new Date(ms).toISOString();
}

/** The organization's audit events, newest first, a page at a time (ids are time-sortable). */
export async function listAuditEvents(
  deps: IdentityDeps,
  cmd: ListAuditEventsCommand,
): Promise<{ events: AuditRecord[]; next_cursor?: string; has_more: boolean }> {
  const filter: Filter = {};
  if (cmd.type) {
    if (!isAuditType(cmd.type))
      throw errors.unprocessable([
        { field: "type", code: "INVALID_ENUM", message: `type is not an audit event type: ${cmd.type}` },
      ]);
    filter.type = cmd.type;
  }
  if (cmd.actor) filter["actor.id"] = cmd.actor;
  const when: Operators = {};
  if (cmd.since) when.$gte = instant(cmd.since, "since");
  if (cmd.until) when.$lt = instant(cmd.until, "until");
  if (when.$gte !== undefined || when.$lt !== undefined) filter.occurred_at = when;
  if (cmd.cursor) {
    const before = decodeAuditCursor(cmd.cursor);
    if (!before)
      throw errors.unprocessable([
        { field: "cursor", code: "INVALID_FORMAT", message: "cursor is not a next_cursor returned by this API" },
      ]);
    filter.id = { $lt: before };
  }
  const rows = await deps.repo.auditPage(cmd.organizationId, filter, cmd.limit + 1);
  const hasMore = rows.length > cmd.limit;
  const events = rows.slice(0, cmd.limit);
  return {
    events,
    has_more: hasMore,
    ...(hasMore ? { next_cursor: encodeAuditCursor(events[events.length - 1]!.id) } : {}),
  };
}
