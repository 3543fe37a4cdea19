import { errors, fieldChanges } from "@verdict/kit";
import { auditChangeEvent, type AuditContextInput } from "@verdict/outbox";
import { withDefaults } from "../../domain/organization.js";
import type { IdentityDeps } from "../../deps.js";
import { getOrganization, type OrganizationView } from "./getOrganization.js";

export interface UpdateOrganizationCommand {
  organizationId: string;
  name?: string;
  defaultSeverity?: "error" | "warning";
  requireEvaluationPass?: boolean;
  allowInlineSuppression?: boolean;
  requireMfa?: boolean;
  systemDescription?: string;
  reportScope?: string;
  requireConnectedRepository?: boolean;
  /** Who asks, for the audit event written with the change. */
  audit?: AuditContextInput | undefined;
}

/** What the audit log shows of an organization change: its name and every setting. */
const AUDITED_FIELDS = [
  "name",
  "settings.default_severity",
  "settings.require_evaluation_pass",
  "settings.allow_inline_suppression",
  "settings.require_mfa",
  "settings.system_description",
  "settings.report_scope",
  "settings.require_connected_repository",
] as const;

export async function updateOrganization(
  deps: IdentityDeps,
  cmd: UpdateOrganizationCommand,
): Promise<OrganizationView> {
  const current = await deps.orgs.find(cmd.organizationId);
  if (!current) throw errors.notFound("organization", cmd.organizationId);
  const set: Record<string, unknown> = {};
  if (cmd.name !== undefined) set.name = cmd.name;
  if (cmd.defaultSeverity !== undefined) set["settings.default_severity"] = cmd.defaultSeverity;
  if (cmd.requireEvaluationPass !== undefined) set["settings.require_evaluation_pass"] = cmd.requireEvaluationPass;
  if (cmd.allowInlineSuppression !== undefined) set["settings.allow_inline_suppression"] = cmd.allowInlineSuppression;
  if (cmd.requireMfa !== undefined) set["settings.require_mfa"] = cmd.requireMfa;
  if (cmd.systemDescription !== undefined) set["settings.system_description"] = cmd.systemDescription;
  if (cmd.reportScope !== undefined) set["settings.report_scope"] = cmd.reportScope;
  if (cmd.requireConnectedRepository !== undefined)
    set["settings.require_connected_repository"] = cmd.requireConnectedRepository;
  const before: Record<string, unknown> = { name: current.name };
  for (const [key, value] of Object.entries(withDefaults(current.settings))) before[`settings.${key}`] = value;
  // Written with the change through the outbox; the audit consumer appends it to the log.
  const audit = auditChangeEvent(deps.outbox, deps.clock, "/identity", {
    organizationId: cmd.organizationId,
    type: "organization.updated",
    context: cmd.audit,
    targetType: "organization",
    targetId: cmd.organizationId,
    changes: fieldChanges(before, { ...before, ...set }, AUDITED_FIELDS),
  });
  const updated = await deps.orgs.update(cmd.organizationId, set, [audit]);
  if (!updated) throw errors.notFound("organization", cmd.organizationId);
  return getOrganization(deps, { organizationId: cmd.organizationId });
}
