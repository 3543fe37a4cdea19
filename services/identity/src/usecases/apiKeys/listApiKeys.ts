import type { IdentityDeps } from "../../deps.js";
import type { KeyRecord } from "../../repo.js";

export interface ListApiKeysCommand {
  organizationId: string;
}

/** An organization's API keys, revoked ones too. */
export async function listApiKeys(deps: IdentityDeps, cmd: ListApiKeysCommand): Promise<KeyRecord[]> {
  return deps.repo.keysOf(cmd.organizationId);
}
