// What counts as a second factor: a TOTP authenticator or at least one passkey.
export interface FactorHolder {
  totp_sealed: string | null;
  passkeys?: readonly unknown[];
  recovery_code_hashes: readonly string[];
}

export function hasSecondFactor(u: FactorHolder): boolean {
  return u.totp_sealed !== null || (u.passkeys?.length ?? 0) > 0;
}

/** The second factors a sign-in may continue with, in the order a page should offer them. */
export function mfaMethods(u: FactorHolder): string[] {
  const methods: string[] = [];
  if ((u.passkeys?.length ?? 0) > 0) methods.push("webauthn");
  if (u.totp_sealed !== null) methods.push("totp");
  if (u.recovery_code_hashes.length > 0) methods.push("recovery_code");
  return methods;
}
