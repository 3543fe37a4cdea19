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

/**
 * One provider's credential, as data taken from the provider's own documentation of its token
 * format. Either the token names its provider itself (`prefix`, a literal it always starts with:
 * found wherever it stands), or its shape is too generic to stand alone and `keywords` name the
 * provider: then a value of that shape is reported only where one of them stands before it
 * (the engine's provider context, the same for every syntax).
 */
export interface ProviderFamily {
  /** Rule id, kebab-case, unique across all built-ins. */
  id: string;
  provider: string;
  /** What the secret is, as the provider calls it ("API access token"). */
  secret: string;
  /** RE2 of the whole token: prefix, alphabet, length, required parts. */
  token: string;
  /** The provider's page that documents the format. */
  docs: string;
  /** The literal(s) every token starts with (self-identifying formats). */
  prefix?: string | string[];
  /** Lower-case words naming the provider, required near a generic shape. */
  keywords?: string[];
  /** Bytes from keyword to secret (default: the engine's). */
  distance?: number;
  options?: RuleOptions;
}

const LETTERS_ONLY = "^[A-Za-z_.-]+$";

/** A provider family as a rule: a self-identifying token, or a shape in the provider's context. */
export function providerRule(family: ProviderFamily): BuiltinPattern {
  const message = `${family.provider} ${family.secret} found in source code`;
  if (!family.keywords && !family.prefix) throw new Error(`${family.id}: a prefix or provider keywords`);
  const keywords = family.keywords ?? [family.prefix!].flat().map((p) => p.toLowerCase());
  return formatToken(family.id, message, family.token, keywords, {
    min_entropy: 3,
    documentation_url: family.docs,
    ...(family.keywords
      ? {
          context: { keywords: family.keywords, ...(family.distance ? { distance: family.distance } : {}) },
          // A generic shape of letters alone is a word or an identifier (`hasSideEffectsForTemplateSegment`
          // after `TemplateSegment:`), not a random key: 32 random base62 characters have no digit
          // about once in 280 tries.
          allowlist: [LETTERS_ONLY],
        }
      : {}),
    ...family.options,
  });
}
