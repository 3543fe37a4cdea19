import type { identityV1 } from "@verdict/proto";
import { route } from "../http/route.js";
import { refuseImpossibleDays } from "../http/schemas.js";
import type { AuditEventType } from "@verdict/kit";
import { AuditEventListSchema, ListAuditEventsQuery } from "../http/peopleSchemas.js";

export function auditEventJson(e: identityV1.AuditEvent) {
  return {
    id: e.id,
    type: e.type as AuditEventType,
    actor: {
      type: (e.actor?.type ?? "system") as "user" | "api_key" | "system",
      id: e.actor?.id ?? "",
      ip: e.actor?.ip || null,
    },
    credential: e.credential_type
      ? { type: e.credential_type as "api_key" | "session" | "oauth_client", id: e.credential_id }
      : null,
    request_id: e.request_id || null,
    target: { type: e.target_type, id: e.target_id },
    occurred_at: e.occurred_at,
    data: JSON.parse(e.data_json || "{}") as Record<string, unknown>,
  };
}

export const auditRoutes = [
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
