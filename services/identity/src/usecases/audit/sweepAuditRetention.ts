// The audit retention sweep: in each organization that set `audit_retention_days`, the events
// older than that are deleted behind a checkpoint the kept chain links to (docs/audit.md). Run by
// the identity service at start and every 10 minutes (by any replica: the checkpoint moves once),
// and for one organization when it changes the setting.
import { retentionCutoff } from "../../domain/audit.js";
import type { IdentityDeps } from "../../deps.js";

type SweepDeps = Pick<IdentityDeps, "audit" | "orgs" | "clock">;

/** Deletes the events past each organization's retention; answers how many went, per organization. */
export async function sweepAuditRetention(deps: SweepDeps): Promise<Record<string, number>> {
  const deleted: Record<string, number> = {};
  for (const org of await deps.orgs.withAuditRetention()) {
    const n = await applyAuditRetention(deps, org.id, org.settings.audit_retention_days);
    if (n) deleted[org.id] = n;
  }
  return deleted;
}

/** Deletes one organization's events older than `days` days (none when it keeps them forever). */
export function applyAuditRetention(deps: SweepDeps, organizationId: string, days: number | null): Promise<number> {
  if (!days) return Promise.resolve(0);
  const now = deps.clock.now();
  return deps.audit.deleteBefore(organizationId, retentionCutoff(now, days), now.toISOString());
}
