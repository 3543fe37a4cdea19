// The two shapes most provider secret rules take, so each rule states only its facts: a token
// that carries its own format (a prefix, a fixed structure) and is found wherever it stands, and
// a secret without a format of its own, found only where it is assigned to a name that says whose
// it is. Both capture the secret in group 1 (redacted) and are gated by keywords.
import { assignment, TOKEN_END, type BuiltinPattern } from "./types.js";

/** What a rule may add beyond its id, pattern, message and keywords (entropy, allowlists, checks…). */
export type RuleOptions = Omit<
  Partial<BuiltinPattern>,
  "id" | "type" | "value" | "message" | "keywords" | "redact_group"
>;

/**
 * A token with a format of its own: `token` is its RE2 pattern (starting at a word character),
 * matched as a whole token, neither preceded nor followed by more of the token alphabet.
 */
export function formatToken(
  id: string,
  message: string,
  token: string,
  keywords: string[],
  options: RuleOptions = {},
): BuiltinPattern {
  return {
    id,
    type: "regex",
    value: String.raw`\b(${token})${TOKEN_END}`,
    message,
    redact_group: 1,
    keywords,
    ...options,
  };
}

/**
 * A secret recognisable only by the name it is assigned to (`datadog_api_key = "…"`), in every
 * syntax `assignment()` knows. `names` is matched case-insensitively; the keywords are the names'
 * fixed parts in lower case.
 */
export function namedSecret(
  id: string,
  message: string,
  names: string,
  secret: string,
  keywords: string[],
  options: RuleOptions = {},
): BuiltinPattern {
  return { id, type: "regex", value: assignment(names, secret), message, redact_group: 1, keywords, ...options };
}
