import { errors, fieldChanges, LIVE_VERIFICATION_PROVIDERS } from "@verdict/kit";
import { auditChangeEvent, type AuditContextInput } from "@verdict/outbox";
import { MIN_AUDIT_RETENTION_DAYS } from "../../domain/audit.js";
import { changedLiveVerification, withDefaults } from "../../domain/organization.js";
import type { IdentityDeps } from "../../deps.js";
import { applyAuditRetention } from "../audit/sweepAuditRetention.js";
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
  /** Unset fields stay as they are (see changedLiveVerification). */
  liveVerification?: { enabled?: boolean | undefined; providers?: readonly string[] | undefined } | undefined;
  /** Days after which audit events are deleted (at least 90); null: kept forever. */
  auditRetentionDays?: number | null;
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
  "settings.audit_retention_days",
  "settings.live_verification",
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
  if (cmd.liveVerification !== undefined) {
    const unknown = (cmd.liveVerification.providers ?? []).findIndex(
      (p) => !(LIVE_VERIFICATION_PROVIDERS as readonly string[]).includes(p),
    );
    if (unknown >= 0)
      throw errors.validation([
        {
          field: `settings.live_verification.providers[${unknown}]`,
          code: "INVALID_ENUM",
          message: `providers must be among ${LIVE_VERIFICATION_PROVIDERS.join(", ")}`,
        },
      ]);
    set["settings.live_verification"] = changedLiveVerification(
      withDefaults(current.settings).live_verification,
      cmd.liveVerification,
      LIVE_VERIFICATION_PROVIDERS,
    );
  }
  if (cmd.auditRetentionDays !== undefined) {
    if (cmd.auditRetentionDays !== null && cmd.auditRetentionDays < MIN_AUDIT_RETENTION_DAYS)
      throw errors.validation([
        {
          field: "settings.audit_retention_days",
          code: "MIN_SIZE_REQUIRED",
          min: MIN_AUDIT_RETENTION_DAYS,
          message: `audit_retention_days must be at least ${MIN_AUDIT_RETENTION_DAYS} (or null: kept forever)`,
        },
      ]);
    set["settings.audit_retention_days"] = cmd.auditRetentionDays;
  }
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
  // A new retention applies at once; should this fail, the periodic sweep applies it.
  if (cmd.auditRetentionDays)
    await applyAuditRetention(deps, cmd.organizationId, cmd.auditRetentionDays).catch((err: unknown) =>
      deps.logger.warn({ err, organization_id: cmd.organizationId }, "could not apply the new audit retention"),
    );
  return getOrganization(deps, { organizationId: cmd.organizationId });
}
