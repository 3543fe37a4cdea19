// Noise control for secret findings: entropy for generic secrets, and the placeholders that
// documentation, examples and templates are full of.

/** Shannon entropy of a string, in bits per character. */
export function shannonEntropy(value: string): number {
  if (!value) return 0;
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  const n = [...value].length;
  let h = 0;
  for (const c of counts.values()) {
    const p = c / n;
    h -= p * Math.log2(p);
  }
  return h;
}

// Documented example credentials (AWS's own examples) and words that only placeholders contain.
const KNOWN_EXAMPLES = new Set(["AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"]);
const PLACEHOLDER_WORDS =
  /example|sample|dummy|placeholder|changeme|change[_-]me|redacted|your[_-]?(?:api[_-]?)?(?:key|token|secret|password|pass)|insert[_-]?here|replace[_-]?me|^fake|^test(?:ing)?$|^password$|^secret$|^none$|^null$|^undefined$/i;
// Template and variable syntax: the value comes from elsewhere.
const TEMPLATE =
  /^\$\{[^}]*\}$|^\$[A-Za-z_][A-Za-z0-9_]*$|^\{\{.*\}\}$|^<[^>]+>$|^%\([^)]*\)s$|^%s$|^\$\([^)]*\)$|^#\{[^}]*\}$|^ENC\[|^vault:|^arn:aws:secretsmanager/;

/** True for values that are obviously not real secrets. */
export function isPlaceholder(secret: string): boolean {
  const s = secret.trim();
  if (!s) return true;
  if (KNOWN_EXAMPLES.has(s)) return true;
  if (TEMPLATE.test(s)) return true;
  if (PLACEHOLDER_WORDS.test(s)) return true;
  // xxxx…, ****, 0000…, ….: one character repeated, or only masking characters.
  if (/^[xX*.#0-]+$/.test(s)) return true;
  // A token format filled in with masking characters (`sk_live_xxxxxxxxxxxxxxxx`, `ghp_****…`,
  // `AKIA...`): a run that random tokens practically never contain (five x in a row: about one
  // in 10^7 for a 40-character base62 token).
  if (/x{5,}|X{5,}|\*{4,}|\.{3,}|…/.test(s)) return true;
  const chars = [...s];
  return chars.length >= 4 && chars.every((c) => c === chars[0]);
}

/**
 * True when the value is base64 (or base64url) of ordinary text: words, spaces and punctuation,
 * no digits (`SGVsbG8gV29ybGQ=` is "Hello World"). Encoded prose is no secret; an encoded
 * credential (`user:0f3a…`) is not prose and stays a finding.
 */
export function isEncodedText(value: string): boolean {
  if (value.length < 8 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) return false;
  const decoded = Buffer.from(value, /[-_]/.test(value) ? "base64url" : "base64").toString("latin1");
  return decoded.length >= 6 && /^[A-Za-z][A-Za-z ,.;:'!?()\n-]*$/.test(decoded) && /[a-z]{3}/.test(decoded);
}

// Passwords that documentation and tests write for "a password goes here".
const EXAMPLE_PASSWORDS =
  /^(?:pass(?:word)?\d*|passwd|pwd|secret|test(?:ing)?|changeme|admin|guest|demo|foo|bar|baz|user|1234|12345|123456)$/i;

/** True for a password that stands for one (`pass`, `password`, `changeme`, `****`). */
export function isExamplePassword(password: string): boolean {
  return password.length > 0 && (EXAMPLE_PASSWORDS.test(password) || isPlaceholder(password));
}
