// What is posted back for an evaluated change: the state, a one-line title, a summary, and one
// annotation per violation on a line the change added (a provider comments only on those).
// Messages carry the engine's masked snippet at most, never a matched value whole.
import type { evaluationV1 } from "@verdict/proto";
import type { Annotation, ChangedFile, CheckReport } from "./provider.js";

/** The check's name on the provider (a status context, a check run's name). */
export const CHECK_NAME = "verdict";

/** What a report reads of a violation: the contract's message (verdict.evaluation.v1.Violation). */
export type EvaluatedViolation = Pick<
  evaluationV1.Violation,
  "policy_id" | "rule_id" | "severity" | "file" | "line" | "message" | "code_snippet" | "fingerprint"
>;

export interface EvaluationOutcome {
  passed: boolean;
  violations: EvaluatedViolation[];
  totalViolations: number;
  filesEvaluated: number;
}

/** How a failed evaluation is reported: blocking (the organization's require_evaluation_pass) or not. */
export interface ReportPolicy {
  /** false: a failed evaluation is reported neutral ("not blocking"), its annotations still posted. */
  blocking: boolean;
}

export interface Incomplete {
  /** Files not evaluated: over the file count, too large, or too large together. */
  skippedForSize: number;
}

export function buildReport(
  outcome: EvaluationOutcome,
  changed: ChangedFile[],
  incomplete: Incomplete,
  detailsUrl?: string,
  policy: ReportPolicy = { blocking: true },
): CheckReport {
  const added = new Map(changed.map((f) => [f.path, new Set(f.addedLines ?? [])]));
  const annotations: Annotation[] = outcome.violations
    .filter((v) => added.get(v.file)?.has(v.line))
    .map((v) => ({
      path: v.file,
      line: v.line,
      level: v.severity === "error" ? "failure" : "warning",
      title: `${v.policy_id}: ${v.rule_id}`,
      message: v.code_snippet ? `${v.message}\n\n\`${v.code_snippet.replaceAll("`", "'")}\`` : v.message,
      fingerprint: v.fingerprint,
    }));
  const counted = `${outcome.totalViolations} violation${outcome.totalViolations === 1 ? "" : "s"} in ${outcome.filesEvaluated} file${outcome.filesEvaluated === 1 ? "" : "s"}`;
  const skipped = incomplete.skippedForSize
    ? `${incomplete.skippedForSize} file${incomplete.skippedForSize === 1 ? " was" : "s were"} too large to evaluate`
    : "";
  const elsewhere = outcome.violations.length - annotations.length;
  const summary = [
    counted,
    skipped,
    elsewhere > 0 ? `${elsewhere} on lines this change did not add` : "",
    detailsUrl ? `Details: ${detailsUrl}` : "",
  ]
    .filter(Boolean)
    .join("\n");
  const base = { summary, annotations, ...(detailsUrl ? { detailsUrl } : {}) };
  if (!outcome.passed && !policy.blocking)
    return { ...base, state: "neutral", title: `Verdict: failed, not blocking (no pass required), ${counted}` };
  if (!outcome.passed) return { ...base, state: "failure", title: `Verdict: failed, ${counted}` };
  // Never a silent pass: a change not evaluated whole says so.
  if (skipped) return { ...base, state: "neutral", title: `Verdict: not evaluated whole, ${skipped}` };
  return { ...base, state: "success", title: `Verdict: passed, ${counted}` };
}
