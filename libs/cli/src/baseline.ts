// Baselines: the findings a repository already had when it adopted Verdict, accepted so that
// only new ones fail a build. An entry is a finding's fingerprint (the engine's: policy, rule,
// file and a digest of the matched value, never the value) with how many times it occurs; a new
// secret, even on an old line, has another fingerprint and is reported. Pure: no I/O.
import type { Evaluation } from "@verdict/sdk";
import type { MergedEvaluation } from "./batches.js";

export const BASELINE_PATH = ".verdict/baseline.json";

type Violation = Evaluation["violations"][number];

export interface BaselineEntry {
  fingerprint: string;
  policy_id: string;
  rule_id: string;
  file: string;
  /** Where it was when the baseline was made: for people reading the file, not for matching. */
  line: number;
  /** Occurrences of the same value in the same file that are accepted. */
  count: number;
  /** After this instant the entry no longer applies (ISO 8601); absent: no expiry. */
  expires_at?: string;
}

export interface Baseline {
  version: 1;
  created_at: string;
  findings: BaselineEntry[];
}

/** The baseline of an evaluation's findings: one entry per fingerprint, without snippets or values. */
export function baselineOf(violations: Violation[], now: Date, expiresAt?: Date): Baseline {
  const byFingerprint = new Map<string, BaselineEntry>();
  for (const v of violations) {
    const seen = byFingerprint.get(v.fingerprint);
    if (seen) seen.count++;
    else
      byFingerprint.set(v.fingerprint, {
        fingerprint: v.fingerprint,
        policy_id: v.policy_id,
        rule_id: v.rule_id,
        file: v.file,
        line: v.line,
        count: 1,
        ...(expiresAt ? { expires_at: expiresAt.toISOString() } : {}),
      });
  }
  return {
    version: 1,
    created_at: now.toISOString(),
    findings: [...byFingerprint.values()].sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line),
  };
}

/** A baseline file's content, or why it cannot be used. */
export function parseBaseline(text: string): Baseline | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { error: "not JSON" };
  }
  const b = value as Partial<Baseline> | null;
  if (!b || b.version !== 1 || !Array.isArray(b.findings)) return { error: "not a version 1 baseline" };
  const bad = b.findings.findIndex(
    (e) =>
      typeof e?.fingerprint !== "string" ||
      typeof e.file !== "string" ||
      !Number.isInteger(e.count) ||
      e.count < 1 ||
      (e.expires_at !== undefined && Number.isNaN(Date.parse(e.expires_at))),
  );
  if (bad >= 0) return { error: `findings[${bad}] needs fingerprint, file, a positive count and a valid expires_at` };
  return b as Baseline;
}

/** The fingerprints a baseline accepts at `now` (its entries not expired). */
export function acceptedFingerprints(b: Baseline, now: Date): Set<string> {
  return new Set(
    b.findings.filter((f) => !f.expires_at || Date.parse(f.expires_at) > now.getTime()).map((f) => f.fingerprint),
  );
}

export interface BaselineResult {
  evaluation: MergedEvaluation;
  /** Findings hidden because the baseline accepts them. */
  baselined: number;
  /** Entries past their expires_at: their findings are reported again. */
  expired: BaselineEntry[];
  /** Entries of evaluated files whose finding is gone (fixed): the baseline can be made again. */
  stale: BaselineEntry[];
}

/**
 * The evaluation without the findings the baseline accepts, its counts and verdict adjusted
 * (an evaluation passes when no finding of error severity is left, as the service decides).
 * `evaluated`: the files that were sent, so only their entries can be stale.
 */
export function applyBaseline(
  e: MergedEvaluation,
  baseline: Baseline,
  evaluated: ReadonlySet<string>,
  now: Date,
): BaselineResult {
  const expired = baseline.findings.filter((f) => f.expires_at && Date.parse(f.expires_at) <= now.getTime());
  const left = new Map(baseline.findings.filter((f) => !expired.includes(f)).map((f) => [f.fingerprint, f.count]));
  const kept: Violation[] = [];
  const hidden: Violation[] = [];
  for (const v of e.violations) {
    const n = left.get(v.fingerprint) ?? 0;
    if (n > 0) {
      left.set(v.fingerprint, n - 1);
      hidden.push(v);
    } else kept.push(v);
  }
  const stale = baseline.findings.filter(
    (f) => !expired.includes(f) && evaluated.has(f.file) && left.get(f.fingerprint) === f.count,
  );
  if (hidden.length === 0) return { evaluation: e, baselined: 0, expired, stale };
  const of = (severity: string) => hidden.filter((v) => v.severity === severity).length;
  const summary = {
    ...e.summary,
    total_violations: e.summary.total_violations - hidden.length,
    errors: e.summary.errors - of("error"),
    warnings: e.summary.warnings - of("warning"),
  };
  const passed = e.status === "completed" ? summary.errors === 0 : e.passed;
  return { evaluation: { ...e, summary, passed, violations: kept }, baselined: hidden.length, expired, stale };
}
