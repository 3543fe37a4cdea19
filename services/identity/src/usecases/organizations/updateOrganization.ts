import { errors } from "@verdict/kit";
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
}

export async function updateOrganization(
  deps: IdentityDeps,
  cmd: UpdateOrganizationCommand,
): Promise<OrganizationView> {
  const set: Record<string, unknown> = {};
  if (cmd.name !== undefined) set.name = cmd.name;
  if (cmd.defaultSeverity !== undefined) set["settings.default_severity"] = cmd.defaultSeverity;
  if (cmd.requireEvaluationPass !== undefined) set["settings.require_evaluation_pass"] = cmd.requireEvaluationPass;
  if (cmd.allowInlineSuppression !== undefined) set["settings.allow_inline_suppression"] = cmd.allowInlineSuppression;
  if (cmd.requireMfa !== undefined) set["settings.require_mfa"] = cmd.requireMfa;
  if (cmd.systemDescription !== undefined) set["settings.system_description"] = cmd.systemDescription;
  if (cmd.reportScope !== undefined) set["settings.report_scope"] = cmd.reportScope;
  const updated = await deps.orgs.update(cmd.organizationId, set);
  if (!updated) throw errors.notFound("organization", cmd.organizationId);
  return getOrganization(deps, { organizationId: cmd.organizationId });
}
