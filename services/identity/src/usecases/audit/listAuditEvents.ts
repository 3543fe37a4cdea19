import { assertListInput, encodeCursor, errors, foreignCursor, parsePageWindow } from "@verdict/kit";
import { isAuditType } from "../../domain/audit.js";
import type { IdentityDeps } from "../../deps.js";
import type { AuditRecord } from "../../repos/auditRepo.js";
import type { Filter, Operators } from "@verdict/store";

export interface ListAuditEventsCommand {
  organizationId: string;
  /** An actor id: user_…, key_… */
  actor?: string;
  type?: string;
  /** The kind of object an event is about (policy, webhook, user, …), as recorded. */
  targetType?: string;
  /** That object's id (a policy's, a webhook's wh_…). */
  targetId?: string;
  /** ISO 8601, inclusive / exclusive. */
  since?: string;
  until?: string;
  limit: number;
  cursor?: string;
}

/**
 * The organization's audit events, newest first, a page at a time (ids are time-sortable), paged
 * exactly like evaluations: the same cursor, the same date checks, the same errors.
 */
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
  if (cmd.targetType) filter.target_type = cmd.targetType;
  if (cmd.targetId) filter.target_id = cmd.targetId;
  const { window, problems } = parsePageWindow(cmd, "aud");
  assertListInput(problems);
  // A cursor that names no event of this organization was not issued to it.
  if (window.beforeId !== undefined && !(await deps.audit.has(cmd.organizationId, window.beforeId))) foreignCursor();
  const when: Operators = {};
  if (window.since) when.$gte = window.since;
  if (window.until) when.$lt = window.until;
  if (when.$gte !== undefined || when.$lt !== undefined) filter.occurred_at = when;
  if (window.beforeId) filter.id = { $lt: window.beforeId };
  const rows = await deps.audit.page(cmd.organizationId, filter, cmd.limit + 1);
  const hasMore = rows.length > cmd.limit;
  const events = rows.slice(0, cmd.limit);
  return {
    events,
    has_more: hasMore,
    ...(hasMore ? { next_cursor: encodeCursor(events[events.length - 1]!.id) } : {}),
  };
}
