// Keys that vendors publish as the fixed credentials of their local emulators: they open nothing
// but an emulator on the developer's own machine, and sample configurations carry them by design,
// so a rule of the real service's key leaves them alone (its allowlist).

/**
 * Azurite's (and the legacy Azure Storage Emulator's) account key of the account
 * `devstoreaccount1`, as Microsoft documents it:
 * https://learn.microsoft.com/en-us/azure/storage/common/storage-connect-azurite
 */
export const AZURITE_ACCOUNT_KEY =
  "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

/** An allowlist entry (RE2, the whole secret) for each of `keys`, taken literally. */
export const exactly = (...keys: string[]): string =>
  `^(?:${keys.map((k) => k.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("|")})$`;
