import type { IdentityDeps } from "../../deps.js";
import type { KeyRecord } from "../../repos/apiKeyRepo.js";

export interface ListApiKeysCommand {
  organizationId: string;
}

/** An organization's API keys, revoked ones too. */
export async function listApiKeys(deps: IdentityDeps, cmd: ListApiKeysCommand): Promise<KeyRecord[]> {
  return deps.keys.keysOf(cmd.organizationId);
}
