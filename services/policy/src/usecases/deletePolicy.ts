import { errors } from "@verdict/kit";
import { findBuiltin } from "../domain/builtins/index.js";
import type { PolicyDeps } from "../deps.js";
import { logPolicyChanged, policyChangedEvent } from "./events.js";

const BUILTIN_DELETE_MESSAGE = "Built-in policies cannot be deleted; disable them instead";

export interface DeletePolicyCommand {
  organizationId: string;
  policyId: string;
}

export async function deletePolicy(deps: PolicyDeps, cmd: DeletePolicyCommand): Promise<void> {
  const { organizationId, policyId } = cmd;
  if (findBuiltin(policyId)) {
    throw errors.unprocessable(
      [{ field: "policy_id", code: "INVALID_FORMAT", message: BUILTIN_DELETE_MESSAGE }],
      BUILTIN_DELETE_MESSAGE,
    );
  }
  const event = policyChangedEvent(deps, { organizationId, policyId, action: "deleted" });
  const deleted = await deps.repo.deleteCustom(organizationId, policyId, event);
  if (!deleted) throw errors.notFound("policy", policyId);
  logPolicyChanged(deps, { organizationId, policyId, action: "deleted" });
}
