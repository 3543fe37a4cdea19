// OAuth tokens: opaque, `vdt_oat_…` (access) and `vdt_ort_…` (refresh), with the API keys'
// checksum scheme, so a leaked one is recognisable and a mistyped one refused before any lookup.
import { hasScope } from "./apiKey.js";

export const ACCESS_TOKEN_PREFIX = "vdt_oat_";
export const REFRESH_TOKEN_PREFIX = "vdt_ort_";

/** The granted scopes a token may use now: those the member's role still holds. */
export function scopesWithinRole(granted: readonly string[], role: readonly string[]): string[] {
  return [...new Set(granted.filter((s) => hasScope(role, s)))];
}
