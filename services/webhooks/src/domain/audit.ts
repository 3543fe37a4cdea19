// What the audit log shows of a webhook endpoint. Its URL's path and query may carry the
// receiver's own token, so the log keeps the origin and a digest of the whole URL (a change is
// visible, the token is not); the signing secret never appears.
import { createHash } from "node:crypto";
import { fieldChanges, type FieldChange } from "@verdict/kit";

export interface AuditedEndpoint {
  url: string;
  events: string[];
  status: string;
}

export const AUDITED_ENDPOINT_FIELDS = ["url_origin", "url_sha256", "events", "status"] as const;

export function auditedEndpoint(e: AuditedEndpoint): Record<string, unknown> {
  let origin: string;
  try {
    origin = new URL(e.url).origin;
  } catch {
    origin = "";
  }
  return {
    url_origin: origin,
    url_sha256: createHash("sha256").update(e.url).digest("hex"),
    events: e.events,
    status: e.status,
  };
}

export function endpointChanges(
  before: AuditedEndpoint | null,
  after: AuditedEndpoint | null,
): Record<string, FieldChange> {
  return fieldChanges(before && auditedEndpoint(before), after && auditedEndpoint(after), AUDITED_ENDPOINT_FIELDS);
}
