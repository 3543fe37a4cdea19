// gRPC handlers of the audit log. Map proto <-> use cases, nothing else.
import { commandOf, messageFields } from "@verdict/kit";
import type { identityV1 } from "@verdict/proto";
import { exportAuditEvents } from "../usecases/audit/exportAuditEvents.js";
import { listAuditEvents } from "../usecases/audit/listAuditEvents.js";
import type { AuditRecord } from "../repos/auditRepo.js";
import type { IdentityDeps } from "../deps.js";
import type { IdentityHandlers } from "./mapping.js";

function toAuditEvent(e: AuditRecord): identityV1.AuditEvent {
  return {
    ...messageFields(e, ["id", "type", "actor", "target_type", "target_id", "occurred_at"]),
    data_json: JSON.stringify(e.data),
    credential_type: e.credential?.type ?? "",
    credential_id: e.credential?.id ?? "",
    request_id: e.request_id ?? "",
    seq: e.seq,
    prev_hash: e.prev_hash,
    hash: e.hash,
    organization_id: e.organization_id,
  };
}

export function auditHandlers(deps: IdentityDeps): IdentityHandlers<"listAuditEvents" | "exportAuditEvents"> {
  return {
    async exportAuditEvents(req) {
      const page = await exportAuditEvents(deps, {
        ...commandOf(req),
        // An int64 arrives as its decimal string; no limit named: 500.
        afterSeq: Number(req.after_seq),
        limit: req.limit > 0 ? req.limit : 500,
      });
      const cp = page.checkpoint;
      return {
        events: page.events.map(toAuditEvent),
        ...(cp ? { checkpoint: { seq: cp.seq, hash: cp.hash, swept_at: cp.swept_at } } : {}),
      };
    },
    async listAuditEvents(req) {
      const page = await listAuditEvents(deps, {
        ...commandOf(req, ["actor", "type", "target_type", "target_id", "since", "until", "cursor"]),
        // The page size: at most 100, none named: 20.
        limit: req.limit > 0 ? Math.min(req.limit, 100) : 20,
      });
      return { events: page.events.map(toAuditEvent), next_cursor: page.next_cursor, has_more: page.has_more };
    },
  };
}
