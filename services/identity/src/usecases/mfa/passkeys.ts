// The passkeys a signed-in person owns: list, rename, delete. Only ever the session's own user's
// credentials; the public key and counter never leave the service.
import { errors, type FieldError } from "@verdict/kit";
import { hasSecondFactor } from "../../domain/mfa.js";
import { withDefaults } from "../../domain/organization.js";
import type { IdentityDeps } from "../../deps.js";
import type { PasskeyRecord, UserRecord } from "../../repos/accountRepo.js";
import { recordAudit } from "../audit/recordAudit.js";
import { activeSession } from "../sessions/verifySession.js";
import { assertPasskeyVersion, changePasskeys, passkeyVersion } from "./changePasskeys.js";

export interface PasskeyView {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
  device_type: string;
  backed_up: boolean;
  transports: string[];
  version: number;
}

export function passkeyView(p: PasskeyRecord): PasskeyView {
  return {
    id: p.id,
    name: p.name,
    created_at: p.created_at,
    last_used_at: p.last_used_at ?? null,
    device_type: p.device_type ?? "unknown",
    backed_up: p.backed_up ?? false,
    transports: p.transports,
    version: passkeyVersion(p),
  };
}

async function sessionUser(deps: IdentityDeps, sessionToken: string) {
  const session = await activeSession(deps, sessionToken);
  const user = await deps.accounts.byId(session.user_id);
  if (!user) throw errors.notFound("user", session.user_id);
  return { session, user };
}

function ownPasskey(user: UserRecord, passkeyId: string): PasskeyRecord {
  const passkey = (user.passkeys ?? []).find((p) => p.id === passkeyId);
  // Another person's credential id answers exactly as an unknown one.
  if (!passkey) throw errors.notFound("passkey", passkeyId);
  return passkey;
}

export interface ListPasskeysQuery {
  sessionToken: string;
}

export async function listPasskeys(deps: IdentityDeps, { sessionToken }: ListPasskeysQuery): Promise<PasskeyView[]> {
  const { user } = await sessionUser(deps, sessionToken);
  return (user.passkeys ?? []).map(passkeyView);
}

export async function renamePasskey(
  deps: IdentityDeps,
  cmd: { sessionToken: string; passkeyId: string; name: string; expectedVersion?: number },
): Promise<PasskeyView> {
  const { user } = await sessionUser(deps, cmd.sessionToken);
  let renamed: PasskeyRecord | undefined;
  await changePasskeys(deps, {
    userId: user.id,
    change: (fresh) => {
      const passkey = ownPasskey(fresh, cmd.passkeyId);
      assertPasskeyVersion(passkey, cmd.expectedVersion);
      renamed = { ...passkey, name: cmd.name, version: passkeyVersion(passkey) + 1 };
      return { passkeys: (fresh.passkeys ?? []).map((p) => (p.id === passkey.id ? renamed! : p)) };
    },
  });
  return passkeyView(renamed!);
}

/** Organizations this person is an active member of that require MFA. */
async function requiringMfa(deps: IdentityDeps, userId: string): Promise<string[]> {
  const memberships = await deps.members.activeMembershipsOf(userId);
  const orgs = await Promise.all(memberships.map((m) => deps.orgs.find(m.organization_id)));
  return orgs.filter((o) => o && withDefaults(o.settings).require_mfa).map((o) => o!.name);
}

export async function deletePasskey(
  deps: IdentityDeps,
  cmd: { sessionToken: string; passkeyId: string; clientIp: string; expectedVersion?: number },
): Promise<void> {
  const { session, user } = await sessionUser(deps, cmd.sessionToken);
  let deleted: PasskeyRecord | undefined;
  await changePasskeys(deps, {
    userId: user.id,
    change: async (fresh) => {
      const passkey = ownPasskey(fresh, cmd.passkeyId);
      assertPasskeyVersion(passkey, cmd.expectedVersion);
      deleted = passkey;
      const left = (fresh.passkeys ?? []).filter((p) => p.id !== passkey.id);
      const lastFactor = !hasSecondFactor({ ...fresh, passkeys: left });
      if (lastFactor) {
        const requiring = await requiringMfa(deps, fresh.id);
        if (requiring.length) {
          const message = `This is your last second factor and ${requiring.join(", ")} requires MFA: add another passkey or an authenticator app first`;
          const problem: FieldError = { field: "credential_id", code: "INVALID_ENUM", message };
          throw errors.unprocessable([problem], message);
        }
      }
      // With no second factor left, recovery codes would be a way in that nothing else guards.
      return { passkeys: left, extra: lastFactor ? { recovery_code_hashes: [], recovery_codes_left: 0 } : {} };
    },
  });
  await recordAudit(deps, {
    organizationId: session.organization_id,
    type: "mfa.passkey_deleted",
    actor: { type: "user", id: user.id, ip: cmd.clientIp },
    targetType: "user",
    targetId: user.id,
    data: { name: deleted!.name },
  });
}
