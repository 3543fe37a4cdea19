// The matching engine. All enabled patterns of an organization are compiled into one RE2.Set
// that reads each file once, as UTF-8 bytes; only the patterns the set reports run again on
// their own, to find positions and capture groups. RE2 keeps both passes linear in the input,
// whatever the patterns. Around the matching sit the noise controls people expect from secret
// scanners: keyword and path gates, entropy thresholds, placeholder allowlists, skipped file
// kinds, and inline `verdict-ignore` suppression. Syntax-aware rules (`type: "structural"`)
// run beside RE2, one parse and one tree traversal per file and language (structuralScan.ts,
// structural.ts), and their findings go through the same gates, suppression, limits and snippets.
// Beside it: the set's first pass (ruleSet.ts), where a keyword-gated rule's second pass looks
// (keywordReach.ts), leading lazy runs (lazyPrefix.ts), provider context (providerContext.ts), one
// finding per secret (duplicates.ts), shared shapes (engineTypes.ts).
import picomatch from "picomatch";
import { RE2 } from "./re2.js";
import { alignBack, ByteLines, codePointsBetween, toLowerAscii } from "./bytes.js";
import { FORMAT_CHECKS, resolveChecks, type Check } from "./checks.js";
import { withoutGenericDuplicates } from "./duplicates.js";
import type {
  CompiledPolicy,
  Engine,
  FileScan,
  Finding,
  Hit,
  PatternToRun,
  PolicyToRun,
  Reporting,
  ScanOptions,
  SuppressedFinding,
} from "./engineTypes.js";
import { skipReason, type SkipReason } from "./fileKinds.js";
import { fingerprintOf } from "./fingerprint.js";
import { extendBack, lazyPrefix, type LazyPrefix } from "./lazyPrefix.js";
import { anchoredMatches, contextMatches, startsAtKeyword, type PassMatch, type Reach } from "./keywordReach.js";
import { isPlaceholder, shannonEntropy } from "./noise.js";
import { compileContext, nearProvider, type CompiledContext } from "./providerContext.js";
import type { Range } from "./redaction.js";
import { compileSet, largestRepeat, SET_MAX_REPEAT, type Candidates, type SetEntry } from "./ruleSet.js";
import { buildSnippet } from "./snippet.js";
import { structuralRules, structuralScan, type StructuralCosts, type StructuralRules } from "./structuralScan.js";
import { covers, parseMarker } from "./suppression.js";
import { textGate } from "./textGate.js";

export type {
  Engine,
  FileScan,
  Finding,
  PatternToRun,
  PolicyToRun,
  ScanOptions,
  SuppressedFinding,
} from "./engineTypes.js";
export type { ProviderContext } from "./providerContext.js";
export { lazyPrefix } from "./lazyPrefix.js";

/** A rule's own regular expressions (compileMatch(), compileGates()). */
interface RuleRegexes {
  re: RE2;
  paths: RE2[];
  allowlist: RE2[];
  matchAllowlist: RE2[];
  lineAllowlist: RE2[];
  fileRequires: RE2[];
  fileExcludes: RE2[];
  /** Set when `re` is the pattern without its leading lazy run (lazyPrefix()): extend each match back over it. */
  prefix?: LazyPrefix;
}

interface Rule extends Reporting, RuleRegexes {
  keywords: Buffer[];
  /** The keywords as the set looks for them (lower case). */
  keywordTexts: ReadonlySet<string>;
  stopwords: string[];
  checks: Check[];
  /** Whether a match needs its secret decoded (entropy, allowlists, stopwords, checks). */
  readsSecret: boolean;
  /** What the set looks for on this rule's behalf (ruleSet.ts's setEntries()). */
  entry: SetEntry;
  context?: CompiledContext;
  /** Where the second pass looks for matches (keywordReach.ts). */
  reach: Reach;
  /** The pattern anchored where a search starts, compiled on first use (keywordReach.ts). */
  sticky: () => RE2;
}

// m: ^ and $ at line boundaries (whole files are scanned); u: Unicode classes; g: every match;
// d: capture group offsets, to mask exactly the secret.
const RULE_FLAGS = "gmdu";
// File conditions read the whole file once: ^ and $ at line boundaries.
const FILE_FLAGS = "mu";
// Masked wherever they appear again in the file, but not short values (masking every "1234"
// would mangle ordinary code), and not unboundedly many.
const MIN_REPEATED_SECRET = 4;
const MAX_REPEATED_SECRETS = 1000;
// Snippets are cut from this many bytes either side of the match: bounded work per finding even
// when a minified file is one 1 MiB line.
const SNIPPET_WINDOW = 1024;

/** How compileEngine() compiles. */
export interface CompileOptions {
  /**
   * Compile each regex rule's own expressions when a file first makes it a candidate, and the
   * structural rules of a language when a file of that language is first scanned, not all up
   * front (the set is compiled at once either way). The findings are the same; a process that
   * scans a few files (the CLI's `evaluate --offline`) skips most of the 500-odd compilations.
   * The first pass is two sets (compileSet()'s `split`), quicker to build on a process's first
   * files.
   */
  lazyRules?: boolean;
  /**
   * The only texts the engine will scan (a few files: their lower-cased copies are made): regex
   * and structural rules that cannot match in any of them are left out (textGate.ts). Their
   * findings are the same; the findings in any other text may not be.
   */
  texts?: readonly { path: string; content: Buffer }[];
  /**
   * Every rule's second pass searches the whole file, even a rule whose matches can only start at
   * or after its keywords (keywordReach.ts): the reference the keyword windows are measured and
   * checked against (`pnpm bench:engine`, the engine's tests).
   */
  wholeFiles?: boolean;
}

/** A rule's match expression: what the second pass searches a file with (secondPass()). */
function compileMatch(pattern: PatternToRun): Pick<RuleRegexes, (typeof MATCH_FIELDS)[number]> {
  const split = lazyPrefix(pattern.value);
  return {
    re: new RE2(split ? split.rest : pattern.value, RULE_FLAGS),
    ...(split ? { prefix: split.prefix } : {}),
  };
}

/** A rule's gates: the expressions a file is checked against before the second pass. */
function compileGates(pattern: PatternToRun): Pick<RuleRegexes, (typeof GATE_FIELDS)[number]> {
  return {
    paths: pattern.paths.map((p) => new RE2(p, "u")),
    fileRequires: (pattern.file_requires ?? []).map((p) => new RE2(p, FILE_FLAGS)),
    fileExcludes: (pattern.file_excludes ?? []).map((p) => new RE2(p, FILE_FLAGS)),
  };
}

/** A rule's allowlists: what a match is checked against (none are read in a file with no match). */
function compileAllowlists(pattern: PatternToRun): Pick<RuleRegexes, (typeof ALLOWLIST_FIELDS)[number]> {
  return {
    allowlist: pattern.allowlist.map((p) => new RE2(p, "u")),
    matchAllowlist: (pattern.match_allowlist ?? []).map((p) => new RE2(p, "u")),
    lineAllowlist: (pattern.line_allowlist ?? []).map((p) => new RE2(p, "u")),
  };
}

const MATCH_FIELDS = ["re", "prefix"] as const satisfies readonly (keyof RuleRegexes)[];
const GATE_FIELDS = ["paths", "fileRequires", "fileExcludes"] as const satisfies readonly (keyof RuleRegexes)[];
const ALLOWLIST_FIELDS = [
  "allowlist",
  "matchAllowlist",
  "lineAllowlist",
] as const satisfies readonly (keyof RuleRegexes)[];

/**
 * `rule` with its regexes compiled on first read, in three groups: the gates (read for every
 * candidate), the match expression, which a rule whose matches start at its keywords never reads
 * (its second pass runs the anchored `sticky` copy, so a large pattern is not compiled twice),
 * and the allowlists, read only for a match. Once compiled, plain properties.
 */
function withLazyRegexes<T extends object>(rule: T, pattern: PatternToRun): T & RuleRegexes {
  const lazily = <F extends keyof RuleRegexes>(
    fields: readonly F[],
    compile: (p: PatternToRun) => Pick<RuleRegexes, F>,
  ) => {
    const define = () => {
      const regexes = compile(pattern);
      for (const field of fields)
        Object.defineProperty(rule, field, { value: regexes[field], writable: true, enumerable: true });
      return regexes;
    };
    for (const field of fields)
      Object.defineProperty(rule, field, { get: () => define()[field], configurable: true, enumerable: true });
  };
  lazily(MATCH_FIELDS, compileMatch);
  lazily(GATE_FIELDS, compileGates);
  lazily(ALLOWLIST_FIELDS, compileAllowlists);
  return rule as T & RuleRegexes;
}

/** Where a rule's second pass looks (keywordReach.ts): never the whole file when it need not. */
function reachOf(pattern: PatternToRun, options: CompileOptions): Reach {
  // A rule searched without its leading lazy run finds its starts by extending back: the file.
  if (options.wholeFiles || lazyPrefix(pattern.value)) return "file";
  if (pattern.context?.keywords.length) return "context";
  const keywords = pattern.keywords.map((k) => k.toLowerCase());
  return keywords.length && startsAtKeyword(pattern.value, keywords) ? "anchored" : "file";
}

/**
 * What the set looks for on a rule's behalf (ruleSet.ts): a rule with keywords and large counted
 * repeats, its pattern with the repeats opened where every match starts at a keyword ("capped"),
 * else its keywords; a rule with provider context, which only ever reports near a keyword, its
 * keywords; any other rule, its pattern.
 */
function entryOf(pattern: PatternToRun, reach: Reach): SetEntry {
  if (!pattern.keywords.length) return "pattern";
  const large = largestRepeat(pattern.value) > SET_MAX_REPEAT;
  if (large && reach === "anchored") return "capped";
  return large || pattern.context?.keywords.length ? "keywords" : "pattern";
}

const once = <T>(make: () => T): (() => T) => {
  let made: T | undefined;
  return () => (made ??= make());
};

export function compileEngine(policies: readonly PolicyToRun[], options: CompileOptions = {}): Engine {
  const rules: Rule[] = [];
  const structural = structuralRules(options.lazyRules);
  let order = 0;
  const byPolicy = new Map<string, CompiledPolicy>();
  const admits = options.texts ? textGate(options.texts) : () => true;
  for (const policy of policies) {
    const excludes = policy.exclude_paths.length ? picomatch(policy.exclude_paths, { dot: true }) : undefined;
    byPolicy.set(policy.id, { excluded: (p) => (excludes ? excludes(p) : false) });
    for (const pattern of policy.patterns) {
      // A structural rule has the same gates (keywords, paths) before a file is parsed for it.
      if (pattern.type === "structural") {
        if (admits(pattern)) structural.add(policy, pattern, order);
        order++;
        continue;
      }
      if (!admits(pattern)) {
        order++;
        continue;
      }
      const stopwords = (pattern.stopwords ?? []).map((w) => w.toLowerCase());
      const reach = reachOf(pattern, options);
      const checks = resolveChecks(pattern.checks ?? [], pattern.rule_id);
      const rule = {
        policy,
        pattern,
        keywords: pattern.keywords.map((k) => Buffer.from(k.toLowerCase(), "utf8")),
        keywordTexts: new Set(pattern.keywords.map((k) => k.toLowerCase())),
        stopwords,
        checks,
        readsSecret:
          pattern.redact ||
          pattern.min_entropy > 0 ||
          pattern.allowlist.length > 0 ||
          stopwords.length > 0 ||
          checks.length > 0,
        order: order++,
        entry: entryOf(pattern, reach),
        ...(pattern.context?.keywords.length ? { context: compileContext(pattern.context) } : {}),
        reach,
        sticky: once(() => new RE2(pattern.value, `${RULE_FLAGS}y`)),
      };
      rules.push(
        options.lazyRules
          ? withLazyRegexes(rule, pattern)
          : { ...rule, ...compileMatch(pattern), ...compileGates(pattern), ...compileAllowlists(pattern) },
      );
    }
  }
  const set = rules.length ? compileSet(rules, { split: options.lazyRules }) : undefined;
  const costs: StructuralCosts = new Map();
  return {
    ruleCount: order,
    scan: (path, content, options) => scanFile(rules, set, structural, costs, byPolicy, path, content, options),
    structuralCost: () => costs,
  };
}

/** A rule's matches in the file: where its keywords say they can be, or the whole file. */
function* secondPass(
  rule: Rule,
  content: Buffer,
  lowerContent: () => Buffer,
  found: ReadonlySet<string> | undefined,
): Generator<PassMatch> {
  if (rule.reach === "context" && rule.context) {
    const keywords = present(rule, rule.context.keywords, found);
    yield* contextMatches(
      { ...rule.context, keywords },
      () => ({ re: rule.re, sticky: rule.sticky() }),
      content,
      lowerContent(),
    );
    return;
  }
  if (rule.reach === "anchored") {
    const keywords = present(rule, rule.keywords, found);
    if (yield* anchoredMatches(keywords, rule.sticky(), content, lowerContent())) return;
  }
  const { re } = rule;
  re.lastIndex = 0;
  for (let from = 0, m = re.exec(content); m; from = re.lastIndex, m = re.exec(content)) {
    const end = m.index + (m[0] as unknown as Buffer).length;
    const start = rule.prefix ? extendBack(content, m.index, from, rule.prefix) : m.index;
    if (end === start) {
      re.lastIndex = start + 1;
      continue;
    }
    yield { m, start, end };
  }
}

/**
 * Of `keywords`, those that may be in the file: the set looked for a keyword-entered rule's
 * keywords and found these (`found`); a keyword it did not look for may be anywhere.
 */
function present(rule: Rule, keywords: Buffer[], found: ReadonlySet<string> | undefined): Buffer[] {
  if (!found || rule.entry !== "keywords") return keywords;
  return keywords.filter((k) => {
    const text = k.toString("utf8");
    return found.has(text) || !rule.keywordTexts.has(text);
  });
}

function scanFile(
  rules: Rule[],
  set: Candidates | undefined,
  structural: StructuralRules,
  costs: StructuralCosts,
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
  const { rules: candidates, bySet, keywords: found } = set ? set(content) : { rules: [], bySet: false };

  // Gates: cheap checks on the candidate rules before the positional pass.
  let lower: Buffer | undefined;
  const lowerContent = () => (lower ??= toLowerAscii(content));
  const hits: Hit[] = [];
  hits.push(...structuralScan(structural, policies, path, content, lowerContent, lineIndex, costs));
  for (const index of candidates) {
    const rule = rules[index]!;
    if (policies.get(rule.policy.id)!.excluded(path)) continue;
    if (rule.paths.length && !rule.paths.some((p) => p.test(path))) continue;
    // A keyword entry found one; a capped entry matched a literal that starts with one.
    if (rule.keywords.length && !(bySet && rule.entry !== "pattern")) {
      if (!rule.keywords.some((k) => lowerContent().includes(k))) continue;
    }
    if (rule.fileRequires.length && !rule.fileRequires.some((f) => f.test(content))) continue;
    if (rule.fileExcludes.some((f) => f.test(content))) continue;
    // Pass 2: positions and groups for this rule only.
    const { pattern } = rule;
    for (const { m, start, end } of secondPass(rule, content, lowerContent, found)) {
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

  /** The secret when the rule names one (its capture group), else the whole match. */
  const hitFingerprint = (id: { policy_id: string; rule_id: string; file: string }, hit: Hit) => {
    const value = hit.secret ?? hit;
    return fingerprintOf(id, content.toString("utf8", value.start, value.end));
  };

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
      const id = { policy_id: hit.rule.policy.id, rule_id: hit.rule.pattern.rule_id, file: path };
      // The fingerprint it would have been reported with: silenced, it is still the same finding.
      suppressions.push({ ...id, line: hit.line.line, reason: marker.reason, fingerprint: hitFingerprint(id, hit) });
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
    return {
      ...id,
      severity: hit.rule.policy.severity,
      line: hit.line.line,
      column: codePointsBetween(content, hit.line.start, hit.start) + 1,
      message: hit.rule.pattern.message,
      code_snippet: snippet(content, hit, secrets, secretValues),
      suggestion: hit.rule.policy.suggestion,
      fingerprint: hitFingerprint(id, hit),
      ...(hit.rule.pattern.checks?.some((c) => FORMAT_CHECKS.has(c)) ? { format_verified: true } : {}),
    };
  });
  return { findings, suppressions, matched: reported.length, bySeverity };
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
