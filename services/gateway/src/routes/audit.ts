// The audit log's routes, written by hand rather than generated from identity.proto
// (docs/contracts.md): an event is stored as the hash chain covers it, flat (the credential's
// type and id, the target's type and id as fields; its facts as JSON text), while the REST event
// groups them (`credential` as an object or null, `target: {type, id}`, `data` as an object); and
// the export answers JSON Lines, the chain's own form, paged through ExportAuditEvents.
import type { identityV1 } from "@verdict/proto";
import type { ChainedAuditEvent } from "@verdict/sdk";
import { route } from "../http/route.js";
import { refuseImpossibleDays } from "../http/schemas.js";
import type { AuditEventType } from "@verdict/kit";
import { AuditEventListSchema, ListAuditEventsQuery } from "../http/peopleSchemas.js";

export function auditEventJson(e: identityV1.AuditEvent) {
  return {
    id: e.id,
    type: e.type as AuditEventType,
    actor: {
      type: (e.actor?.type ?? "system") as "user" | "api_key" | "system" | "anonymous",
      id: e.actor?.id ?? "",
      ip: e.actor?.ip || null,
    },
    credential: e.credential_type
      ? { type: e.credential_type as "api_key" | "session" | "oauth_client", id: e.credential_id }
      : null,
    request_id: e.request_id || null,
    target: { type: e.target_type, id: e.target_id },
    occurred_at: e.occurred_at,
    seq: e.seq,
    prev_hash: e.prev_hash,
    hash: e.hash,
    data: JSON.parse(e.data_json || "{}") as Record<string, unknown>,
  };
}

/** An event as the chain stores it and the JSON Lines export carries it (@verdict/sdk auditChain). */
export function chainedAuditEventJson(e: identityV1.AuditEvent): ChainedAuditEvent {
  return {
    seq: e.seq,
    id: e.id,
    organization_id: e.organization_id,
    type: e.type,
    actor: { type: e.actor?.type ?? "system", id: e.actor?.id ?? "", ip: e.actor?.ip ?? "" },
    credential: e.credential_type ? { type: e.credential_type, id: e.credential_id } : null,
    request_id: e.request_id || null,
    target_type: e.target_type,
    target_id: e.target_id,
    occurred_at: e.occurred_at,
    data: JSON.parse(e.data_json || "{}") as Record<string, unknown>,
    prev_hash: e.prev_hash,
    hash: e.hash,
  };
}

const EXPORT_PAGE = 1000;

export const auditRoutes = [
  route({
    method: "get",
    path: "/v1/audit-events/export",
    operationId: "exportAuditEvents",
    summary:
      "The whole audit log as JSON Lines, oldest first, one hash-chained event per line (what `verdict audit verify` checks)",
    tag: "Audit log",
    access: { kind: "scope", scope: "read:org" },
    rateClass: "reads",
    responses: {
      200: {
        description:
          "One event per line in chain order: seq, id, organization_id, type, actor, credential, request_id, target_type, target_id, occurred_at, data, prev_hash, hash (docs/audit.md); when the retention sweep deleted older events, a first line {checkpoint: {seq, hash, swept_at}} names the last deleted event, which the first kept one links to",
        contentTypes: ["application/x-ndjson"],
      },
    },
    handler: async ({ principal, clients }) => {
      const lines: string[] = [];
      for (let after = 0; ;) {
        const page = await clients.identity.exportAuditEvents({
          organization_id: principal!.organizationId,
          after_seq: after,
          limit: EXPORT_PAGE,
        });
        // Older events deleted by the retention sweep: the first line names where the chain resumes.
        const cp = page.checkpoint;
        if (after === 0 && cp)
          lines.push(JSON.stringify({ checkpoint: { seq: cp.seq, hash: cp.hash, swept_at: cp.swept_at } }));
        for (const e of page.events) lines.push(JSON.stringify(chainedAuditEventJson(e)));
        if (page.events.length < EXPORT_PAGE) break;
        after = page.events[page.events.length - 1]!.seq;
      }
      return {
        status: 200,
        file: {
          content: Buffer.from(lines.map((l) => `${l}\n`).join(""), "utf8"),
          contentType: "application/x-ndjson",
          filename: `verdict-audit-${principal!.organizationId}.jsonl`,
        },
      };
    },
  }),
  route({
    method: "get",
    path: "/v1/audit-events",
    operationId: "listAuditEvents",
    summary:
      "The organization's audit events (sign-ins, MFA, keys, roles, invitations, removals, configuration changes with their before/after), newest first",
    tag: "Audit log",
    access: { kind: "scope", scope: "read:org" },
    rateClass: "reads",
    query: ListAuditEventsQuery,
    errors: [422],
    errorNotes: { 422: "A cursor not returned to this organization, or a day that does not exist (2026-02-30)" },
    responses: { 200: { description: "Audit events", schema: AuditEventListSchema } },
    handler: async ({ query, principal, clients }) => {
      refuseImpossibleDays(query);
      const res = await clients.identity.listAuditEvents({
        organization_id: principal!.organizationId,
        actor: query.actor ?? "",
        type: query.type ?? "",
        target_type: query.target_type ?? "",
        target_id: query.target_id ?? "",
        since: query.since ?? "",
        until: query.until ?? "",
        limit: query.limit,
        cursor: query.cursor ?? "",
      });
      return {
        status: 200,
        body: {
          audit_events: res.events.map(auditEventJson),
          pagination: { next_cursor: res.next_cursor ?? null, has_more: res.has_more },
        },
      };
    },
  }),
];
