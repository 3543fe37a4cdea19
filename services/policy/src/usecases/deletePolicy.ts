import { errors } from "@verdict/kit";
import type { AuditContextInput } from "@verdict/outbox";
import { policyChanges } from "../domain/policyAudit.js";
import { findBuiltin } from "../domain/builtins/index.js";
import type { PolicyDeps } from "../deps.js";
import { getPolicy } from "./getPolicy.js";
import { logPolicyChanged, policyAuditEvent, policyChangedEvent } from "./events.js";

const BUILTIN_DELETE_MESSAGE = "Built-in policies cannot be deleted; disable them instead";

export interface DeletePolicyCommand {
  organizationId: string;
  policyId: string;
  /** Who asks, for the audit event written with the change. */
  audit?: AuditContextInput | undefined;
}

export async function deletePolicy(deps: PolicyDeps, cmd: DeletePolicyCommand): Promise<void> {
  const { organizationId, policyId } = cmd;
  if (findBuiltin(policyId)) {
    throw errors.unprocessable(
      [{ field: "policy_id", code: "INVALID_FORMAT", message: BUILTIN_DELETE_MESSAGE }],
      BUILTIN_DELETE_MESSAGE,
    );
  }
  const before = await getPolicy(deps, cmd);
  const event = policyChangedEvent(deps, { organizationId, policyId, action: "deleted" });
  const audit = policyAuditEvent(deps, {
    organizationId,
    type: "policy.deleted",
    context: cmd.audit,
    targetType: "policy",
    targetId: policyId,
    changes: policyChanges(before, null),
    data: { name: before.name },
  });
  const deleted = await deps.repo.deleteCustom(organizationId, policyId, [event, audit]);
  if (!deleted) throw errors.notFound("policy", policyId);
  logPolicyChanged(deps, { organizationId, policyId, action: "deleted" });
}
