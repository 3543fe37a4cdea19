// Reading the audit log from black-box tests: configuration changes reach it through the owning
// service's outbox and the bus, so a test waits (briefly) for the event it made.
import type { Api } from "./api.js";

export interface AuditEvent {
  id: string;
  type: string;
  actor: { type: string; id: string; ip: string | null };
  credential: { type: string; id: string } | null;
  request_id: string | null;
  target: { type: string; id: string };
  occurred_at: string;
  data: { changes?: Record<string, { before: unknown; after: unknown }> } & Record<string, unknown>;
}

/** The first audit event (newest first) matching, polled for up to `timeoutMs`; throws when none came. */
export async function auditEventMatching(
  api: Api,
  match: (e: AuditEvent) => boolean,
  opts: { key?: string | null; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<AuditEvent> {
  const deadline = Date.now() + (opts.timeoutMs ?? 15_000);
  for (;;) {
    const res = await api.get("/v1/audit-events", {
      query: { limit: 100 },
      ...(opts.key !== undefined ? { key: opts.key } : {}),
      ...(opts.headers ? { headers: opts.headers } : {}),
    });
    if (res.status !== 200) throw new Error(`GET /v1/audit-events answered ${res.status}: ${res.text}`);
    const found = (res.body.audit_events as AuditEvent[]).find(match);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no audit event matched within the time: ${res.text.slice(0, 2000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The audit event the request with this X-Request-Id recorded. */
export function auditEventOfRequest(api: Api, requestId: string | null, opts = {}): Promise<AuditEvent> {
  if (!requestId) throw new Error("the response has no X-Request-Id");
  return auditEventMatching(api, (e) => e.request_id === requestId, opts);
}
