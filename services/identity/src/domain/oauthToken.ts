// OAuth tokens: opaque, `vdt_oat_…` (access) and `vdt_ort_…` (refresh), with the API keys'
// checksum scheme, so a leaked one is recognisable and a mistyped one refused before any lookup.
import { hasScope, SCOPES } from "./apiKey.js";

export const ACCESS_TOKEN_PREFIX = "vdt_oat_";
export const REFRESH_TOKEN_PREFIX = "vdt_ort_";

/**
 * The granted scopes a token may use now: granted ∩ what the member's role holds now, where
 * `admin` stands for every scope on either side (an admin grant to someone now a member is
 * worth the member's scopes).
 */
export function scopesWithinRole(granted: readonly string[], role: readonly string[]): string[] {
  const expanded: readonly string[] = granted.includes("admin") ? SCOPES : granted;
  return [...new Set(expanded.filter((s) => hasScope(role, s)))];
}
