// Token shapes several providers document for their credentials (RE2), and the two ways a family
// is written down.
import type { ProviderFamily } from "../tokenRules.js";

export const HEX32 = "[a-f0-9]{32}";
export const HEX40 = "[a-f0-9]{40}";
export const HEX64 = "[a-f0-9]{64}";
/** A UUID as providers print it (lower-case hexadecimal, 8-4-4-4-12). */
export const UUID = "[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}";
export const alnum = (n: number | string) => `[A-Za-z0-9]{${n}}`;

/** A key whose shape is generic, reported only where its provider is named before it. */
export const named = (
  id: string,
  provider: string,
  secret: string,
  keywords: string[],
  token: string,
  docs: string,
): ProviderFamily => ({ id, provider, secret, keywords, token, docs });

/** A self-identifying token: its prefix names the provider. */
export const prefixed = (
  id: string,
  provider: string,
  secret: string,
  prefix: string,
  token: string,
  docs: string,
): ProviderFamily => ({ id, provider, secret, prefix, token, docs });

/**
 * A self-identifying family whose prefix is also the start of words or identifiers (`spat_` in
 * spatial code, `EXO` in `EXOPLANET…`): letters alone after the prefix are a name, not a token.
 */
export const lettersAfter = (family: ProviderFamily, prefix: string): ProviderFamily => ({
  ...family,
  options: { allowlist: [`^${prefix}[A-Za-z]+$`] },
});
