// The matching engine: a simple loop of RE2 regular expressions, one pattern at a time, over
// each file. RE2 guarantees linear time in the input, whatever the pattern. Callers only see
// compilePolicies and scanFile, so a one-pass RE2.Set engine can replace the loop later.
import RE2 from "re2";
import { type Range } from "./redaction.js";
import { buildSnippet } from "./snippet.js";
import { countCodePoints, isHighSurrogate, LineIndex, type LineSpan } from "./text.js";

export interface PatternToRun {
  value: string;
  message: string;
  /** Mask the secret in the snippet (the whole match, or capture group redact_group). */
  redact: boolean;
  redact_group: number;
}

export interface PolicyToRun {
  id: string;
  severity: string;
  suggestion: string;
  patterns: PatternToRun[];
}

export interface Finding {
  policy_id: string;
  severity: string;
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based, in Unicode code points. */
  column: number;
  message: string;
  code_snippet: string;
  suggestion: string;
}

interface CompiledPattern {
  policy: PolicyToRun;
  pattern: PatternToRun;
  re: RE2;
}

export interface CompiledPolicies {
  readonly patterns: readonly CompiledPattern[];
}

// g: iterate over every match; m: ^ and $ anchor at line boundaries, since whole files are
// scanned; u: Unicode semantics; d (redacting patterns only, it costs time): capture group
// offsets, to mask exactly the secret.
const FLAGS = "gmu";
const REDACTING_FLAGS = "gmdu";
// Secrets are also masked where they merely appear again, unmatched (`login(user, "hunter22")`
// after `password = "hunter22"`). Not those shorter than this: masking every occurrence of a
// 3-character string would mangle ordinary code. And at most this many distinct values, so a
// file of a million generated "secrets" cannot make every snippet search for all of them;
// every matched occurrence is masked regardless.
const MIN_REPEATED_SECRET = 4;
const MAX_REPEATED_SECRETS = 1000;

/** Compiles once per evaluation; the result is reused for every file. */
export function compilePolicies(policies: readonly PolicyToRun[]): CompiledPolicies {
  return { patterns: policies.flatMap((policy) => policy.patterns.map((pattern) => ({ policy, pattern, re: new RE2(pattern.value, pattern.redact ? REDACTING_FLAGS : FLAGS) }))) };
}

interface Hit {
  compiled: CompiledPattern;
  start: number;
  end: number;
}

interface Matches {
  /** Per pattern, at most `limit` hits: enough to know the first `limit` in reading order. */
  hits: Hit[];
  /** Secret ranges of every match of a redacting pattern, past the limit too. */
  secrets: Range[];
  matched: number;
  bySeverity: Record<string, number>;
}

function secretRange(m: RegExpExecArray, group: number): Range {
  // A group that did not take part in the match falls back to the whole match: mask too much
  // rather than too little.
  const [start, end] = m.indices?.[group] ?? m.indices?.[0] ?? [m.index, m.index + m[0].length];
  return { start, end };
}

function findMatches(content: string, policies: CompiledPolicies, limit: number): Matches {
  const out: Matches = { hits: [], secrets: [], matched: 0, bySeverity: {} };
  for (const compiled of policies.patterns) {
    const { re, pattern, policy } = compiled;
    let kept = 0;
    re.lastIndex = 0;
    for (let m = re.exec(content); m; m = re.exec(content)) {
      const start = m.index;
      const end = start + m[0].length;
      if (end === start) {
        // An empty match shows nothing; step past it (a whole code point) so the loop advances.
        re.lastIndex = start + (isHighSurrogate(content.charCodeAt(start)) ? 2 : 1);
        continue;
      }
      out.matched++;
      out.bySeverity[policy.severity] = (out.bySeverity[policy.severity] ?? 0) + 1;
      if (pattern.redact) out.secrets.push(secretRange(m, pattern.redact_group));
      if (kept < limit) {
        out.hits.push({ compiled, start, end });
        kept++;
      }
    }
  }
  // Reading order; the sort is stable, so findings at one position keep policy order.
  out.hits.sort((a, b) => a.start - b.start);
  out.hits.length = Math.min(out.hits.length, limit);
  return out;
}

/** Secret ranges on the given lines, line-relative; a multi-line secret is listed on each line. */
function secretsByLine(lines: LineIndex, secrets: Range[], wanted: Set<number>): Map<number, Range[]> {
  const out = new Map<number, Range[]>();
  for (const secret of secrets) {
    if (secret.end <= secret.start) continue;
    for (let span = lines.lineAt(secret.start); ; span = lines.lineAt(span.next)) {
      if (wanted.has(span.line)) {
        const list = out.get(span.line) ?? [];
        list.push({ start: secret.start - span.start, end: secret.end - span.start });
        out.set(span.line, list);
      }
      if (secret.end <= span.next) break;
    }
  }
  return out;
}

export interface FileScan {
  /** The first findings in reading order, at most the limit asked for. */
  findings: Finding[];
  /** Every match in the file, including those past the limit. */
  matched: number;
  /** Every match by severity, including those past the limit. */
  bySeverity: Record<string, number>;
}

/**
 * Finds every match of every pattern in one file. All matches are counted; only the first
 * `limit` become findings, because describing one (position, snippet, masking) costs far more
 * than matching it, and a 1 MiB file can match a million times.
 */
export function scanFile(path: string, content: string, policies: CompiledPolicies, limit = Number.POSITIVE_INFINITY): FileScan {
  const { hits, secrets, matched, bySeverity } = findMatches(content, policies, limit);
  if (!hits.length) return { findings: [], matched, bySeverity };
  const lines = new LineIndex(content);
  const spans = hits.map((h) => lines.lineAt(h.start));
  const secretLines = secretsByLine(lines, secrets, new Set(spans.map((s) => s.line)));
  const secretValues = new Set<string>();
  for (const r of secrets) {
    if (secretValues.size >= MAX_REPEATED_SECRETS) break;
    if (r.end - r.start >= MIN_REPEATED_SECRET) secretValues.add(content.slice(r.start, r.end));
  }

  // Hits are sorted, so columns are counted incrementally along each line: linear overall,
  // even for many matches on one very long line.
  let cursor = { line: 0, offset: 0, column: 1 };
  const columnOf = (span: LineSpan, offset: number): number => {
    if (cursor.line !== span.line) cursor = { line: span.line, offset: span.start, column: 1 };
    cursor.column += countCodePoints(content, cursor.offset, offset);
    cursor.offset = offset;
    return cursor.column;
  };

  const findings = hits.map(({ compiled: { policy, pattern }, start, end }, i): Finding => {
    const span = spans[i]!;
    const lineText = content.slice(span.start, span.end);
    return {
      policy_id: policy.id,
      severity: policy.severity,
      file: path,
      line: span.line,
      column: columnOf(span, start),
      message: pattern.message,
      code_snippet: buildSnippet(lineText, { start: start - span.start, end: end - span.start }, secretLines.get(span.line) ?? [], secretValues),
      suggestion: policy.suggestion,
    };
  });
  return { findings, matched, bySeverity };
}
