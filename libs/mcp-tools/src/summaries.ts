// One-line summaries that lead each tool result, so the model reads the verdict first.
import type { Evaluation } from "@verdict/sdk";

export function summarizeEvaluation(e: Evaluation): string {
  if (e.status === "pending") return `Evaluation ${e.id} is pending.`;
  if (e.status === "failed") return `Evaluation ${e.id} could not complete: ${e.failure_reason ?? "unknown reason"}.`;
  const s = e.summary;
  const head = `Evaluation ${e.id} ${e.passed ? "PASSED" : "FAILED"}: ${s.errors} errors, ${s.warnings} warnings in ${s.total_files} files.`;
  const lines = e.violations
    .slice(0, 50)
    .map((v) => `- ${v.file}:${v.line}:${v.column} ${v.severity} ${v.policy_id}: ${v.message} — ${v.suggestion}`);
  return [head, ...lines].join("\n");
}
