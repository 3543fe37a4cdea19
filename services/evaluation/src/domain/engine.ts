// The matching engine. All enabled patterns of an organization are compiled into one RE2.Set
// that reads each file once, as UTF-8 bytes; only the patterns the set reports run again on
// their own, to find positions and capture groups. RE2 keeps both passes linear in the input,
// whatever the patterns. Around the matching sit the noise controls people expect from secret
// scanners: keyword and path gates, entropy thresholds, placeholder allowlists, skipped file
// kinds, and inline `verdict-ignore` suppression. Syntax-aware rules (`type: "structural"`)
// run beside RE2, one parse and one tree traversal per file and language (structural.ts), and
// their findings go through the same gates, suppression, limits and snippets.
import type { evaluationV1 } from "@verdict/proto";
import picomatch from "picomatch";
import RE2 from "re2";
import { alignBack, ByteLines, codePointsBetween, type ByteLine } from "./bytes.js";
import { FORMAT_CHECKS, resolveChecks, type Check } from "./checks.js";
import { skipReason, type SkipReason } from "./fileKinds.js";
import { fingerprintOf } from "./fingerprint.js";
import {
  languageOf,
  matchStructural,
  parseSpec,
  STRUCTURAL_LANGUAGES,
  structuralRule,
  type StructuralLanguage,
  type StructuralRule,
} from "./structural.js";
import { isPlaceholder, shannonEntropy } from "./noise.js";
import { mergeRanges, type Range } from "./redaction.js";
import { buildSnippet } from "./snippet.js";
import { covers, parseMarker } from "./suppression.js";

export interface PatternToRun {
  /** "regex" (RE2; also when absent or empty) or "structural" (structural.ts: JSON of a StructuralSpec). */
  type?: string;
  value: string;
  message: string;
  /** Mask the secret in the snippet (the whole match, or capture group redact_group). */
  redact: boolean;
  redact_group: number;
  rule_id: string;
  keywords: string[];
  min_entropy: number;
  paths: string[];
  allowlist: string[];
  /** A catch-all rule: yields to a specific rule that found the same secret. */
  generic: boolean;
  /** RE2 patterns: a match whose whole text matches one is not a finding. */
  match_allowlist?: string[];
  /** RE2 patterns: a match on a line matching one is not a finding (the line within 1 KiB of it). */
  line_allowlist?: string[];
  /** RE2 patterns on the file: the rule only reports where at least one matches. */
  file_requires?: string[];
  /** RE2 patterns on the file: the rule reports nothing where one matches. */
  file_excludes?: string[];
  /** Lower-case words: a secret containing one is not a finding. */
  stopwords?: string[];
  /** Names of structural checks (checks.ts) every match must pass. */
  checks?: string[];
  /** Provider context: a match counts only where one of these keywords names it (nearProvider()). */
  context?: ProviderContext | undefined;
}

/** Where a token of a provider's shape is that provider's (proto ProviderContext). */
export interface ProviderContext {
  /** Lower-case words naming the provider; one must start a word. */
  keywords: string[];
  /** At most this many bytes from the keyword's start to the secret's start (0: the default). */
  distance: number;
  /** What may stand between keyword and secret besides letters, digits, `_`, blanks and quotes ("": the default). */
  separators: string;
  /** Line breaks allowed between them (a YAML key or XML element naming the provider on the line above). */
  lines: number;
}

export interface PolicyToRun {
  id: string;
  severity: string;
  category: string;
  suggestion: string;
  patterns: PatternToRun[];
  exclude_paths: string[];
}

/**
 * A violation before it has an id. Its fields are the contract's (verdict.evaluation.v1.Violation):
 * a field added there is filled here, where findings are made, and reaches the store, the gRPC
 * answer, the REST answer, the OpenAPI document and the webhooks without another edit.
 */
export type Finding = Omit<evaluationV1.Violation, "id">;

export interface SuppressedFinding {
  policy_id: string;
  rule_id: string;
  file: string;
  line: number;
  reason: string;
}

export interface FileScan {
  /** Set when the file was not scanned at all. */
  skipped?: SkipReason;
  /** The first findings in reading order, at most the limit asked for. */
  findings: Finding[];
  suppressions: SuppressedFinding[];
  /** Every reported finding in the file, including those past the limit. */
  matched: number;
  /** Every reported finding by severity, including those past the limit. */
  bySeverity: Record<string, number>;
}

export interface ScanOptions {
  /** Whether `verdict-ignore` comments silence findings (an organization setting). */
  allowSuppression: boolean;
  /** How many findings to describe; all are counted. */
  limit?: number;
}

export interface Engine {
  readonly ruleCount: number;
  scan(path: string, content: Buffer, options: ScanOptions): FileScan;
}

/** What a finding reports: the rule's policy and pattern, and the rule's place in the library. */
interface Reporting {
  policy: PolicyToRun;
  pattern: PatternToRun;
  /** Position in the library: of two generic rules of equally severe policies on one secret, the earlier one reports it. */
  order: number;
}

/** A structural rule with its cheap gates: the file's path, keywords the file must contain, RE2 conditions on the file. */
interface Structural extends Reporting {
  paths: RE2[];
  keywords: Buffer[];
  fileRequires: RE2[];
}

interface Rule extends Reporting {
  re: RE2;
  keywords: Buffer[];
  paths: RE2[];
  allowlist: RE2[];
  matchAllowlist: RE2[];
  lineAllowlist: RE2[];
  fileRequires: RE2[];
  fileExcludes: RE2[];
  stopwords: string[];
  checks: Check[];
  /** Set when `re` is the pattern without its leading lazy run (lazyPrefix()): extend each match back over it. */
  prefix?: LazyPrefix;
  /** Whether a match needs its secret decoded (entropy, allowlists, stopwords, checks). */
  readsSecret: boolean;
  /** Whether the set looks for this rule's keywords rather than its pattern (setEntry()). */
  keywordEntry: boolean;
  context?: CompiledContext;
}

interface CompiledContext {
  keywords: Buffer[];
  distance: number;
  /** Bytes (ASCII) that may stand between the keyword and the secret. */
  allowed: Uint8Array;
  lines: number;
}

interface CompiledPolicy {
  excluded: (path: string) => boolean;
}

// m: ^ and $ at line boundaries (whole files are scanned); u: Unicode classes; g: every match;
// d: capture group offsets, to mask exactly the secret.
const SET_FLAGS = "mu";
const RULE_FLAGS = "gmdu";
// File conditions read the whole file once: ^ and $ at line boundaries.
const FILE_FLAGS = "mu";
// RE2.Set builds one DFA for all patterns; the default 8 MiB budget is too small for a library
// of this size.
const SET_MAX_MEM = 256 * 1024 * 1024;
// Masked wherever they appear again in the file, but not short values (masking every "1234"
// would mangle ordinary code), and not unboundedly many.
const MIN_REPEATED_SECRET = 4;
const MAX_REPEATED_SECRETS = 1000;
// Snippets are cut from this many bytes either side of the match: bounded work per finding even
// when a minified file is one 1 MiB line.
const SNIPPET_WINDOW = 1024;

export function compileEngine(policies: readonly PolicyToRun[]): Engine {
  const rules: Rule[] = [];
  const structural = new Map<StructuralLanguage, StructuralRule<Structural>[]>(
    STRUCTURAL_LANGUAGES.map((l) => [l, []]),
  );
  let order = 0;
  const byPolicy = new Map<string, CompiledPolicy>();
  for (const policy of policies) {
    const excludes = policy.exclude_paths.length ? picomatch(policy.exclude_paths, { dot: true }) : undefined;
    byPolicy.set(policy.id, { excluded: (p) => (excludes ? excludes(p) : false) });
    for (const pattern of policy.patterns) {
      if (pattern.type === "structural") {
        const spec = parseSpec(pattern.value, pattern.rule_id);
        const owner: Structural = {
          policy,
          pattern,
          order: order++,
          paths: pattern.paths.map((p) => new RE2(p, "u")),
          keywords: pattern.keywords.map((k) => Buffer.from(k.toLowerCase(), "utf8")),
          fileRequires: (pattern.file_requires ?? []).map((p) => new RE2(p, FILE_FLAGS)),
        };
        const compiled = structuralRule(owner, spec);
        for (const language of spec.languages) structural.get(language)!.push(compiled);
        continue;
      }
      const allowlist = pattern.allowlist.map((p) => new RE2(p, "u"));
      const stopwords = (pattern.stopwords ?? []).map((w) => w.toLowerCase());
      const checks = resolveChecks(pattern.checks ?? [], pattern.rule_id);
      const split = lazyPrefix(pattern.value);
      rules.push({
        policy,
        pattern,
        re: new RE2(split ? split.rest : pattern.value, RULE_FLAGS),
        ...(split ? { prefix: split.prefix } : {}),
        keywords: pattern.keywords.map((k) => Buffer.from(k.toLowerCase(), "utf8")),
        paths: pattern.paths.map((p) => new RE2(p, "u")),
        allowlist,
        matchAllowlist: (pattern.match_allowlist ?? []).map((p) => new RE2(p, "u")),
        lineAllowlist: (pattern.line_allowlist ?? []).map((p) => new RE2(p, "u")),
        fileRequires: (pattern.file_requires ?? []).map((p) => new RE2(p, FILE_FLAGS)),
        fileExcludes: (pattern.file_excludes ?? []).map((p) => new RE2(p, FILE_FLAGS)),
        stopwords,
        checks,
        readsSecret:
          pattern.redact ||
          pattern.min_entropy > 0 ||
          allowlist.length > 0 ||
          stopwords.length > 0 ||
          checks.length > 0,
        order: order++,
        // A rule with provider context only ever reports near a keyword: the set looks for those.
        keywordEntry:
          pattern.keywords.length > 0 &&
          (largestRepeat(pattern.value) > SET_MAX_REPEAT || (pattern.context?.keywords.length ?? 0) > 0),
        ...(pattern.context?.keywords.length ? { context: compileContext(pattern.context) } : {}),
      });
    }
  }
  const set = rules.length ? compileSet(rules) : undefined;
  return {
    ruleCount: order,
    scan: (path, content, options) => scanFile(rules, set, structural, byPolicy, path, content, options),
  };
}

// Provider context, by default: the keyword within 48 bytes before the secret (`PGANALYZE_READ_KEY=`,
// `"phrase": {"token": "`, `https://api.phrase.com/v2/projects?access_token=`), joined to it by
// a name and these separators, on the same line. Not `;`: a statement ends there.
const CONTEXT_DISTANCE = 48;
const CONTEXT_SEPARATORS = "=:>-.,/\\(){}[]<?&|@";

function compileContext(context: ProviderContext): CompiledContext {
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
function nearProvider(content: Buffer, lower: Buffer, at: number, context: CompiledContext): boolean {
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
    for (let i = window.indexOf(keyword); i !== -1; i = window.indexOf(keyword, i + 1)) {
      const k = from + i;
      const starts = !isLetter(content[k - 1]) || (isUpper(content[k]) && !isUpper(content[k - 1]));
      if (starts && endsWordPart(content, k, keyword.length)) return true;
    }
  }
  return false;
}

/**
 * The rules the first pass found candidates, and whether the set found them: then a rule entered
 * by its keywords (setEntry()) is known to have one of them in the file.
 */
type Candidates = (content: Buffer) => { rules: number[]; bySet: boolean };

// A pattern with a counted repeat larger than this (`[\w.-]{0,50}`, `{7,127}`) multiplies the
// set's DFA states with every other such pattern active at the same place: a few hundred of them
// together made the one pass ten times slower on real code, each new byte a new DFA state.
const SET_MAX_REPEAT = 16;
const COUNTED_REPEAT = /\{(\d+)(?:,(\d*))?\}/g;

/** The largest bound of a counted repeat in the pattern (an open one counts as unbounded). */
function largestRepeat(pattern: string): number {
  let largest = 0;
  for (const m of pattern.matchAll(COUNTED_REPEAT))
    largest = Math.max(largest, m[2] === "" ? Number.POSITIVE_INFINITY : Number(m[2] ?? m[1]));
  return largest;
}

const escapeLiteral = (word: string) => word.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&");

/**
 * A keyword as the keyword check reads it: ASCII letters in either case, every other character as
 * it is (`[aA][pP][iI]_`). Not `(?i:…)`, whose Unicode case folding also takes the Kelvin sign for
 * a `k`: with exactly the check's matching, the set's answer is the check's.
 */
const caselessAscii = (keyword: string) =>
  [...keyword.toLowerCase()]
    .map((c) => (c >= "a" && c <= "z" ? `[${c}${c.toUpperCase()}]` : escapeLiteral(c)))
    .join("");

/**
 * What the set looks for on a rule's behalf: the pattern itself, or, for a rule with keywords and
 * large counted repeats, its keywords (literals, which keep the set's DFA small). Such a rule then
 * only runs where a keyword occurs, as it must anyway, and its own pass finds whether it matches;
 * the set having found a keyword, the rule's keyword check is not made again.
 */
function setEntry(rule: Rule): string {
  return rule.keywordEntry ? rule.pattern.keywords.map(caselessAscii).join("|") : rule.pattern.value;
}

function compileSet(rules: Rule[]): Candidates {
  // Without the set (too large for its DFA budget, at compile time or on some input), the same
  // answer comes from each pattern alone: slower, never wrong.
  const oneByOne: Candidates = (content) => ({
    rules: rules.flatMap((r, i) => {
      r.re.lastIndex = 0;
      return r.re.test(content) ? [i] : [];
    }),
    bySet: false,
  });
  let set: InstanceType<typeof RE2.Set>;
  try {
    set = new RE2.Set(rules.map(setEntry), SET_FLAGS, { maxMem: SET_MAX_MEM });
  } catch {
    return oneByOne;
  }
  return (content) => {
    try {
      return { rules: set.match(content), bySet: true };
    } catch {
      return oneByOne(content);
    }
  };
}

/**
 * A pattern's leading lazy run of ASCII characters, such as `[\w.-]{0,50}?` (the identifier before
 * a `key =` of the assignment rules): which bytes it takes and how many at most.
 */
interface LazyPrefix {
  allowed: Uint8Array;
  max: number;
}

const LAZY_PREFIX = /^\[((?:\\[wd.\-_]|[A-Za-z0-9_.](?:-[A-Za-z0-9])?|-(?=\]))+)\]\{0,(\d+)\}\?/;

/**
 * Splits `[class]{0,n}?rest` into the class and `rest`, when the class is of ASCII characters and
 * `rest` has no alternation at its top level; else undefined. RE2 searches `rest` alone about
 * three times faster (the counted run at every position multiplies its DFA states), and the match
 * of the whole pattern follows from it exactly (extendBack()): its leftmost start is the leftmost
 * start of `rest`, extended back over at most n class characters, never before where the search
 * began; groups are numbered the same, as the run has none.
 */
export function lazyPrefix(pattern: string): { prefix: LazyPrefix; rest: string } | undefined {
  const head = LAZY_PREFIX.exec(pattern);
  if (!head) return undefined;
  const rest = pattern.slice(head[0].length);
  if (!rest || hasTopLevelAlternation(rest)) return undefined;
  const allowed = new Uint8Array(128);
  const allow = (from: number, to = from) => {
    for (let c = from; c <= to; c++) allowed[c] = 1;
  };
  const word = () => {
    allow(0x30, 0x39);
    allow(0x41, 0x5a);
    allow(0x61, 0x7a);
    allow(0x5f);
  };
  for (const item of head[1]!.matchAll(/\\([wd.\-_])|([A-Za-z0-9_.-])(?:-([A-Za-z0-9]))?/g)) {
    if (item[1] === "w") word();
    else if (item[1] === "d") allow(0x30, 0x39);
    else if (item[1]) allow(item[1].charCodeAt(0));
    else allow(item[2]!.charCodeAt(0), (item[3] ?? item[2]!).charCodeAt(0));
  }
  return { prefix: { allowed, max: Number(head[2]) }, rest };
}

function hasTopLevelAlternation(pattern: string): boolean {
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") i++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") {
      inClass = true;
      // A `]` first in a class (or after `^`) is a literal.
      if (pattern[i + 1] === "^") i++;
      if (pattern[i + 1] === "]") i++;
    } else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "|" && depth === 0) return true;
  }
  return false;
}

/** Where the whole pattern's match starts: `at` (where `rest` matched) extended back over the run, not before `from`. */
function extendBack(content: Buffer, at: number, from: number, prefix: LazyPrefix): number {
  const floor = Math.max(from, at - prefix.max);
  let start = at;
  while (start > floor && prefix.allowed[content[start - 1]!] === 1) start--;
  return start;
}

interface Hit {
  rule: Reporting;
  start: number;
  end: number;
  secret?: Range;
  line: ByteLine;
}

/** Each byte with ASCII upper-case letters lower-cased. */
const ASCII_LOWER = Uint8Array.from({ length: 256 }, (_, b) => (b >= 0x41 && b <= 0x5a ? b | 0x20 : b));
let lowered = Buffer.alloc(64 * 1024);

/**
 * The content with ASCII letters lower-cased, for keyword checks (keywords are lower-case ASCII,
 * so only ASCII letters matter), in one buffer this thread reuses for every file: valid until the
 * next call. A table lookup per byte costs about half of decoding the file as latin1,
 * lower-casing the string and encoding it again, and allocates nothing per file.
 */
function toLowerAscii(buf: Buffer): Buffer {
  if (lowered.length < buf.length) lowered = Buffer.alloc(Math.max(buf.length, lowered.length * 2));
  const out = lowered;
  for (let i = 0; i < buf.length; i++) out[i] = ASCII_LOWER[buf[i]!]!;
  return out.subarray(0, buf.length);
}

function scanFile(
  rules: Rule[],
  set: Candidates | undefined,
  structural: ReadonlyMap<StructuralLanguage, StructuralRule<Structural>[]>,
  policies: Map<string, CompiledPolicy>,
  path: string,
  content: Buffer,
  options: ScanOptions,
): FileScan {
  const empty = (skipped?: SkipReason): FileScan => ({
    ...(skipped ? { skipped } : {}),
    findings: [],
    suppressions: [],
    matched: 0,
    bySeverity: {},
  });
  let lines: ByteLines | undefined;
  const lineIndex = () => (lines ??= new ByteLines(content));
  const skipped = skipReason(path, content, () => lineIndex().count);
  if (skipped) return empty(skipped);
  if (content.length === 0) return empty();

  // Pass 1: one read of the file by the set.
  const { rules: candidates, bySet } = set ? set(content) : { rules: [], bySet: false };

  // Gates: cheap checks on the candidate rules before the positional pass.
  let lower: Buffer | undefined;
  const lowerContent = () => (lower ??= toLowerAscii(content));
  const hits: Hit[] = [];
  const language = languageOf(path);
  if (language) {
    const gated = structural.get(language)!.filter(
      ({ owner }) =>
        !policies.get(owner.policy.id)!.excluded(path) &&
        (!owner.paths.length || owner.paths.some((p) => p.test(path))) &&
        // RE2 conditions before keywords: they need no lower-cased copy of the file.
        (!owner.fileRequires.length || owner.fileRequires.some((f) => f.test(content))) &&
        (!owner.keywords.length || owner.keywords.some((k) => lowerContent().includes(k))),
    );
    if (gated.length) hits.push(...structuralHits(language, content, gated, lineIndex()));
  }
  for (const index of candidates) {
    const rule = rules[index]!;
    if (policies.get(rule.policy.id)!.excluded(path)) continue;
    if (rule.paths.length && !rule.paths.some((p) => p.test(path))) continue;
    if (rule.keywords.length && !(bySet && rule.keywordEntry)) {
      if (!rule.keywords.some((k) => lowerContent().includes(k))) continue;
    }
    if (rule.fileRequires.length && !rule.fileRequires.some((f) => f.test(content))) continue;
    if (rule.fileExcludes.some((f) => f.test(content))) continue;
    // Pass 2: positions and groups for this rule only.
    const { re, pattern } = rule;
    re.lastIndex = 0;
    for (let from = 0, m = re.exec(content); m; from = re.lastIndex, m = re.exec(content)) {
      const end = m.index + (m[0] as unknown as Buffer).length;
      const start = rule.prefix ? extendBack(content, m.index, from, rule.prefix) : m.index;
      if (end === start) {
        re.lastIndex = start + 1;
        continue;
      }
      let secret: Range | undefined;
      if (rule.context) {
        const at = pattern.redact_group ? (m.indices?.[pattern.redact_group]?.[0] ?? start) : start;
        lower ??= toLowerAscii(content);
        if (!nearProvider(content, lower, at, rule.context)) continue;
      }
      if (rule.readsSecret) {
        const span = pattern.redact_group ? m.indices?.[pattern.redact_group] : undefined;
        secret = span ? { start: span[0], end: span[1] } : { start, end };
        const value = content.toString("utf8", secret.start, secret.end);
        if (pattern.min_entropy > 0 && shannonEntropy(value) < pattern.min_entropy) continue;
        if (rule.allowlist.some((a) => a.test(value))) continue;
        if (rule.stopwords.length) {
          const lowerValue = value.toLowerCase();
          if (rule.stopwords.some((w) => lowerValue.includes(w))) continue;
        }
        // An empty secret (a header with nothing after it) is still a finding, not a placeholder.
        if (pattern.redact && value.length > 0 && isPlaceholder(value)) continue;
        if (rule.checks.length) {
          const match = secret.start === start && secret.end === end ? value : content.toString("utf8", start, end);
          if (!rule.checks.every((check) => check({ secret: value, match, content, start, end, path }))) continue;
        }
      }
      if (rule.matchAllowlist.length) {
        const match = content.toString("utf8", start, end);
        if (rule.matchAllowlist.some((a) => a.test(match))) continue;
      }
      const line = lineIndex().at(start);
      if (rule.lineAllowlist.length) {
        const around = content.toString(
          "utf8",
          alignBack(content, Math.max(line.start, start - SNIPPET_WINDOW)),
          alignBack(content, Math.min(line.end, end + SNIPPET_WINDOW)),
        );
        if (rule.lineAllowlist.some((a) => a.test(around))) continue;
      }
      hits.push({ rule, start, end, ...(secret ? { secret } : {}), line });
    }
  }
  if (!hits.length) return empty();
  hits.sort((a, b) => a.start - b.start);
  const deduplicated = withoutGenericDuplicates(hits);

  // Suppression: a marker on the finding's line or the line before it.
  const suppressions: SuppressedFinding[] = [];
  const reported: Hit[] = [];
  const markerCache = new Map<number, ReturnType<typeof parseMarker>>();
  const markerOn = (n: number) => {
    if (n < 1) return undefined;
    if (!markerCache.has(n)) {
      const l = lineIndex().line(n);
      // Only lines that mention the marker are decoded.
      const has = content.subarray(l.start, l.end).includes("verdict-ignore");
      markerCache.set(n, has ? parseMarker(content.toString("utf8", l.start, l.end)) : undefined);
    }
    return markerCache.get(n);
  };
  for (const hit of deduplicated) {
    const previous = options.allowSuppression ? markerOn(hit.line.line - 1) : undefined;
    const marker = options.allowSuppression
      ? (markerOn(hit.line.line) ?? (previous?.standalone ? previous : undefined))
      : undefined;
    if (marker && covers(marker, hit.rule.policy.id, hit.rule.pattern.rule_id)) {
      suppressions.push({
        policy_id: hit.rule.policy.id,
        rule_id: hit.rule.pattern.rule_id,
        file: path,
        line: hit.line.line,
        reason: marker.reason,
      });
    } else reported.push(hit);
  }

  const bySeverity: Record<string, number> = {};
  for (const h of reported) bySeverity[h.rule.policy.severity] = (bySeverity[h.rule.policy.severity] ?? 0) + 1;
  const described = reported.slice(0, options.limit ?? Number.POSITIVE_INFINITY);

  // Every secret of the file, suppressed or not, is masked in every snippet.
  const secrets = hits.filter((h) => h.rule.pattern.redact && h.secret).map((h) => h.secret!);
  const secretValues = new Set<string>();
  for (const s of secrets) {
    if (secretValues.size >= MAX_REPEATED_SECRETS) break;
    if (s.end - s.start >= MIN_REPEATED_SECRET) secretValues.add(content.toString("utf8", s.start, s.end));
  }

  const findings = described.map((hit): Finding => {
    const id = { policy_id: hit.rule.policy.id, rule_id: hit.rule.pattern.rule_id, file: path };
    // The secret when the rule names one (its capture group), else the whole match.
    const value = hit.secret ?? hit;
    return {
      ...id,
      severity: hit.rule.policy.severity,
      line: hit.line.line,
      column: codePointsBetween(content, hit.line.start, hit.start) + 1,
      message: hit.rule.pattern.message,
      code_snippet: snippet(content, hit, secrets, secretValues),
      suggestion: hit.rule.policy.suggestion,
      fingerprint: fingerprintOf(id, content.toString("utf8", value.start, value.end)),
      ...(hit.rule.pattern.checks?.some((c) => FORMAT_CHECKS.has(c)) ? { format_verified: true } : {}),
    };
  });
  return { findings, suppressions, matched: reported.length, bySeverity };
}

/** The structural rules' matches in the file as hits, at UTF-8 byte offsets. */
function structuralHits(
  language: StructuralLanguage,
  content: Buffer,
  rules: StructuralRule<Structural>[],
  lines: ByteLines,
): Hit[] {
  const text = content.toString("utf8");
  const { matches } = matchStructural(language, text, content.length, rules);
  // ast-grep gives UTF-16 offsets; in a file of ASCII text they are the byte offsets.
  const ascii = text.length === content.length;
  const byte = (index: number) => (ascii ? index : Buffer.byteLength(text.slice(0, index), "utf8"));
  return matches.map((m) => {
    const start = byte(m.start);
    return { rule: m.owner, start, end: byte(m.end), line: lines.at(start) };
  });
}

/**
 * One secret, one finding: a generic rule (a password assignment, any high-entropy value)
 * yields to a specific rule (a token format) that found the same secret, whether that finding
 * is reported or suppressed, so silencing a token silences it completely; of two generic rules
 * on the same secret (a password assignment and the generic secret rule), the one of the more
 * severe policy reports it, or the one listed first.
 */
function withoutGenericDuplicates(hits: Hit[]): Hit[] {
  const isSecret = (h: Hit) => h.rule.pattern.redact && h.secret !== undefined;
  const isGenericSecret = (h: Hit) => isSecret(h) && h.rule.pattern.generic;
  const first = new Map<string, Hit>();
  for (const h of hits) {
    if (!isGenericSecret(h)) continue;
    const key = `${h.secret!.start}:${h.secret!.end}`;
    const seen = first.get(key);
    if (!seen || outranks(h.rule, seen.rule)) first.set(key, h);
  }
  const notRepeated = (h: Hit) => !isGenericSecret(h) || first.get(`${h.secret!.start}:${h.secret!.end}`) === h;
  const specific = mergeRanges(hits.filter((h) => isSecret(h) && !h.rule.pattern.generic).map((h) => h.secret!));
  if (!specific.length) return hits.filter(notRepeated);
  const overlapsSpecific = (r: Range) => {
    // Binary search over the sorted, merged ranges of specific secrets.
    let lo = 0;
    let hi = specific.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const s = specific[mid]!;
      if (s.end <= r.start) lo = mid + 1;
      else if (s.start >= r.end) hi = mid - 1;
      else return true;
    }
    return false;
  };
  return hits.filter((h) => notRepeated(h) && !(isGenericSecret(h) && overlapsSpecific(h.secret!)));
}

const SEVERITY_RANK: Readonly<Record<string, number>> = { error: 3, warning: 2, info: 1 };

function outranks(a: Reporting, b: Reporting): boolean {
  const ra = SEVERITY_RANK[a.policy.severity] ?? 0;
  const rb = SEVERITY_RANK[b.policy.severity] ?? 0;
  return ra !== rb ? ra > rb : a.order < b.order;
}

/** The finding's line around the match, decoded, with every secret on it masked. */
function snippet(content: Buffer, hit: Hit, secrets: Range[], secretValues: Set<string>): string {
  const lo = alignBack(content, Math.max(hit.line.start, hit.start - SNIPPET_WINDOW));
  const hi = alignBack(
    content,
    Math.min(hit.line.end, Math.max(hit.start, Math.min(hit.end, hit.start + SNIPPET_WINDOW)) + SNIPPET_WINDOW),
  );
  const text = content.toString("utf8", lo, hi);
  // Byte offsets within [lo, hi) to UTF-16 offsets within text.
  const u16 = (byte: number) =>
    content.toString("utf8", lo, alignBack(content, Math.max(lo, Math.min(hi, byte)))).length;
  const match: Range = { start: u16(hit.start), end: u16(Math.min(hit.end, hi)) };
  const onLine = secrets
    .filter((s) => s.end > lo && s.start < hi)
    .map((s) => ({ start: u16(s.start), end: u16(s.end) }));
  return buildSnippet(text, match, onLine, secretValues);
}
