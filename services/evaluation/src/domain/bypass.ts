// A bypassed evaluation (CreateEvaluationRequest.bypass_reason: a push let through on purpose):
// its findings become bypass events, suppressions carrying the caller's reason, as inline
// verdict-ignore comments do, so the compliance evidence records who let what through and why.
import type { Outcome } from "./evaluation.js";

/**
 * The outcome with every kept finding moved to the suppressions with `reason`, and the counts
 * without them. Findings past the violations cap were never kept: they stay counted, so an
 * evaluation with more errors than the cap still fails.
 */
export function bypassOutcome<O extends Outcome>(o: O, reason: string): O {
  if (!o.kept.length) return o;
  const of = (severity: string) => o.kept.filter((f) => f.severity === severity).length;
  const summary = {
    ...o.summary,
    total_violations: o.summary.total_violations - o.kept.length,
    errors: o.summary.errors - of("error"),
    warnings: o.summary.warnings - of("warning"),
    suppressed: o.summary.suppressed + o.kept.length,
  };
  const bypassed = o.kept.map((f) => ({
    policy_id: f.policy_id,
    rule_id: f.rule_id,
    file: f.file,
    line: f.line,
    reason,
    fingerprint: f.fingerprint,
  }));
  return { ...o, summary, passed: summary.errors === 0, kept: [], suppressions: [...o.suppressions, ...bypassed] };
}
