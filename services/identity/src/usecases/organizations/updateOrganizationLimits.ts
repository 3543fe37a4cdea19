import { errors, fieldChanges } from "@verdict/kit";
import { auditChangeEvent, type AuditContextInput } from "@verdict/outbox";
import { cleanLimits, type RateLimitOverrides } from "../../domain/organization.js";
import type { IdentityDeps } from "../../deps.js";
import { getOrganization, type OrganizationView } from "./getOrganization.js";

export interface UpdateOrganizationLimitsCommand {
  organizationId: string;
  limits: RateLimitOverrides;
  /** Who asks (the instance operator), for the audit event written with the change. */
  audit?: AuditContextInput | undefined;
}

/** The audit fields of an organization's limits: `rate_limits.<limit>` for each one set. */
export function limitFields(limits: RateLimitOverrides | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(limits ?? {})) if (typeof v === "number") out[`rate_limits.${k}`] = v;
  return out;
}

export async function updateOrganizationLimits(
  deps: IdentityDeps,
  cmd: UpdateOrganizationLimitsCommand,
): Promise<OrganizationView> {
  const current = await deps.orgs.find(cmd.organizationId);
  if (!current) throw errors.notFound("organization", cmd.organizationId);
  const limits = cleanLimits(cmd.limits);
  const before = limitFields(current.rate_limits);
  const after = limitFields(limits);
  // Recorded in the organization's own log, written with the change through the outbox: its
  // admins see who changed what their organization may do, and when.
  const audit = auditChangeEvent(deps.outbox, deps.clock, "/identity", {
    organizationId: cmd.organizationId,
    type: "organization.limits_updated",
    context: cmd.audit,
    targetType: "organization",
    targetId: cmd.organizationId,
    changes: fieldChanges(before, after, [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()),
  });
  const updated = await deps.orgs.update(cmd.organizationId, { rate_limits: limits }, [audit]);
  if (!updated) throw errors.notFound("organization", cmd.organizationId);
  return getOrganization(deps, { organizationId: cmd.organizationId });
}
