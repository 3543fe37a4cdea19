// Provider context: a token of a generic shape (32 hex characters, a UUID) counts as a
// provider's only where one of the provider's keywords names it, just before it on the line.
// Bounded work per match, whatever the syntax around it.
import type { policyV1 } from "@verdict/proto";

/** Where a token of a provider's shape is that provider's: the contract's verdict.policy.v1.ProviderContext. */
export type ProviderContext = policyV1.ProviderContext;

export interface CompiledContext {
  keywords: Buffer[];
  distance: number;
  /** Bytes (ASCII) that may stand between the keyword and the secret. */
  allowed: Uint8Array;
  lines: number;
}

// Provider context, by default: the keyword within 48 bytes before the secret (`PGANALYZE_READ_KEY=`,
// `"phrase": {"token": "`, `https://api.phrase.com/v2/projects?access_token=`), joined to it by
// a name and these separators, on the same line. Not `;`: a statement ends there.
const CONTEXT_DISTANCE = 48;
const CONTEXT_SEPARATORS = "=:>-.,/\\(){}[]<?&|@";

export function compileContext(context: ProviderContext): CompiledContext {
  const allowed = new Uint8Array(128);
  const allow = (chars: string) => {
    for (const c of chars) if (c.charCodeAt(0) < 128) allowed[c.charCodeAt(0)] = 1;
  };
  allow("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_ \t\r\"'`");
  allow(context.separators || CONTEXT_SEPARATORS);
  return {
    keywords: context.keywords.map((k) => Buffer.from(k.toLowerCase(), "utf8")),
    distance: context.distance > 0 ? context.distance : CONTEXT_DISTANCE,
    allowed,
    lines: Math.max(0, Math.min(1, context.lines)),
  };
}

const isLetter = (b: number | undefined) => b !== undefined && ((b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a));
const isUpper = (b: number | undefined) => b !== undefined && b >= 0x41 && b <= 0x5a;

/**
 * Whether a keyword found at `k` ends its word part: what follows is not a letter that continues
 * it (`consulToken`, `CONSUL_TOKEN`, `steam:` but not `consultant`, `upsteam`, `Duration`).
 */
function endsWordPart(content: Buffer, k: number, length: number): boolean {
  const next = content[k + length];
  // A keyword that ends in a separator (`owm_`, `ado_`) ends a word part itself.
  if (!isLetter(next) || !isLetter(content[k + length - 1])) return true;
  // Lower-case, or capitalised: a camel-case hump ends it. All capitals: only a non-letter does.
  return isUpper(next) && !isUpper(content[k + length - 1]);
}

/**
 * Whether a provider keyword names the secret starting at `at`: the keyword is a word or a word
 * part of a name (after a non-letter or as a camel-case hump: `myPhraseToken`, and ending there,
 * endsWordPart()), at most `distance` bytes before the
 * secret, and everything between them is a name, blanks, quotes or separators, across at most
 * `lines` line breaks. Bounded work per match: one walk back over `distance` bytes and a search
 * of that window per keyword, whatever the syntax around it.
 */
export function nearProvider(content: Buffer, lower: Buffer, at: number, context: CompiledContext): boolean {
  const floor = Math.max(0, at - context.distance);
  let from = at;
  let breaks = 0;
  while (from > floor) {
    const b = content[from - 1]!;
    if (b === 0x0a) {
      if (++breaks > context.lines) break;
    } else if (b >= 0x80 || context.allowed[b] !== 1) break;
    from--;
  }
  const window = lower.subarray(from, at);
  for (const keyword of context.keywords) {
    for (let i = window.indexOf(keyword); i !== -1; i = window.indexOf(keyword, i + 1))
      if (namesAt(content, from + i, keyword.length)) return true;
  }
  return false;
}

/**
 * Whether the keyword found at `k` is a word or a word part of a name: after a non-letter or as
 * a camel-case hump (`myPhraseToken`), and ending there (endsWordPart()).
 */
export function namesAt(content: Buffer, k: number, length: number): boolean {
  const starts = !isLetter(content[k - 1]) || (isUpper(content[k]) && !isUpper(content[k - 1]));
  return starts && endsWordPart(content, k, length);
}
