// A Verdict account for an email an identity provider vouched for (SCIM provisioning, SSO
// sign-in): the one that has the address, or a new one without a password.
import { DuplicateKeyError } from "@verdict/store";
import type { IdentityDeps } from "../../deps.js";
import type { UserRecord } from "../../repos/accountRepo.js";

export interface FindOrCreateAccountCommand {
  /** Normalized (see normalizeEmail). */
  email: string;
  /** The display name a new account gets. */
  name: string;
  /** The id a new account gets (a SCIM user's id is its account's). */
  id: string;
  /** When a new account is made (default: now). */
  createdAt?: string;
  /** The organization whose identity provider (SCIM, SSO) makes it: a new account is bound to it. */
  boundTo?: string;
}

/** The account for an email, made (without a password, with the given id) when it does not exist yet. */
export async function findOrCreateAccount(deps: IdentityDeps, cmd: FindOrCreateAccountCommand): Promise<UserRecord> {
  const { email, name, id } = cmd;
  const found = await deps.accounts.byEmail(email);
  if (found) return found;
  const user: UserRecord = {
    id,
    email,
    name,
    password_hash: null,
    totp_sealed: null,
    totp_last_step: null,
    totp_pending_sealed: null,
    recovery_code_hashes: [],
    recovery_codes_left: 0,
    created_at: cmd.createdAt ?? deps.clock.now().toISOString(),
    idp_organization_ids: cmd.boundTo ? [cmd.boundTo] : [],
  };
  try {
    await deps.accounts.insert(user);
    return user;
  } catch (err) {
    if (err instanceof DuplicateKeyError) {
      const raced = await deps.accounts.byEmail(email);
      if (raced) return raced;
      // The id is taken by another account (its email changed since): a fresh id then.
      return findOrCreateAccount(deps, { ...cmd, id: `${id}x` });
    }
    throw err;
  }
}
