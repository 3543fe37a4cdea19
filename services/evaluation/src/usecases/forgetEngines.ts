import type { EvaluationDeps } from "../deps.js";

export interface ForgetEnginesCommand {
  /** The organization whose policies changed. */
  organizationId: string;
}

/** An organization's policies changed: its compiled engines, and the warm list's, are stale. */
export async function forgetEngines(deps: EvaluationDeps, cmd: ForgetEnginesCommand): Promise<void> {
  deps.engines.forget(cmd.organizationId);
  deps.warm?.forget(cmd.organizationId);
}
