// Every write of a person's passkeys goes through here: read the user, compute the new list,
// write it only if nobody wrote it meanwhile (passkeys_rev), else read again and recompute.
// The list lives in one field, so without this a rename racing a delete (or a registration
// racing a sign-in's counter update) would put back what the other just changed.
import { AppError, errors } from "@verdict/kit";
import type { IdentityDeps } from "../../deps.js";
import type { PasskeyRecord, UserRecord } from "../../repos/accountRepo.js";

const ATTEMPTS = 5;

export interface PasskeysChange {
  passkeys: PasskeyRecord[];
  extra?: Partial<UserRecord>;
}

export interface ChangePasskeysCommand {
  userId: string;
  change: (user: UserRecord) => PasskeysChange | Promise<PasskeysChange>;
}

/** `change` sees the freshest user on each attempt and may throw to refuse. */
export async function changePasskeys(
  deps: IdentityDeps,
  { userId, change }: ChangePasskeysCommand,
): Promise<UserRecord> {
  for (let i = 0; i < ATTEMPTS; i++) {
    const user = await deps.accounts.byId(userId);
    if (!user) throw errors.notFound("user", userId);
    const next = await change(user);
    const updated = await deps.accounts.writePasskeys(user, next.passkeys, next.extra);
    if (updated) return updated;
  }
  throw errors.unavailable("Your passkeys changed several times meanwhile; retry");
}

/** A passkey's version (If-Match names it): absent on passkeys never renamed since it was kept. */
export const passkeyVersion = (p: PasskeyRecord): number => p.version ?? 1;

/** 412 when the caller named a version the passkey has moved past. */
export function assertPasskeyVersion(p: PasskeyRecord, expected: number | undefined): void {
  if (expected === undefined || expected === passkeyVersion(p)) return;
  throw new AppError(
    "precondition_failed",
    "VERSION_MISMATCH",
    `The passkey changed since version ${expected} (it is at version ${passkeyVersion(p)}): read it again`,
    { current_version: passkeyVersion(p) },
  );
}
