// An evaluation as a person (or an editor's problem matcher) reads it:
//   file:line:col severity policy message
//       <the matched line, secret redacted>
import type { Evaluation } from "@verdict/sdk";
import type { Colors } from "./colors.js";

export function formatFinding(v: Evaluation["violations"][number], c: Colors): string {
  const severity = v.severity === "error" ? c.red(c.bold("error")) : c.yellow("warning");
  const head = `${c.bold(`${v.file}:${v.line}:${v.column}`)} ${severity} ${c.cyan(v.policy_id)} ${v.message}${verification(v, c)}`;
  const snippet = v.code_snippet.trim();
  return snippet ? `${head}\n    ${c.dim(snippet)}` : head;
}

/** What the provider said of the credential (live verification), when it was asked. */
function verification(v: Evaluation["violations"][number], c: Colors): string {
  switch (v.verification) {
    case "live":
      return ` ${c.red(c.bold("[live: the provider accepted it]"))}`;
    case "revoked":
      return ` ${c.dim("[revoked: the provider refused it]")}`;
    case "unknown":
      return ` ${c.dim("[liveness unknown]")}`;
    default:
      return "";
  }
}

/** An evaluation, or several of one change merged (id null, their ids in `evaluations`). */
export type Printable = Omit<Evaluation, "id"> & { id: string | null; evaluations?: string[] };

/** `passed` is the verdict after the organization's require_evaluation_pass setting. */
export function formatEvaluation(e: Printable, c: Colors, opts: { blocking: boolean }): string {
  const lines = e.violations.map((v) => formatFinding(v, c));
  const s = e.summary;
  const counts = `${s.errors} ${s.errors === 1 ? "error" : "errors"}, ${s.warnings} ${s.warnings === 1 ? "warning" : "warnings"} in ${s.total_files} ${s.total_files === 1 ? "file" : "files"}`;
  const extra = [s.suppressed ? `${s.suppressed} suppressed` : "", s.skipped_files ? `${s.skipped_files} skipped` : ""]
    .filter(Boolean)
    .join(", ");
  let verdict: string;
  if (e.status === "failed") verdict = c.red(`evaluation failed: ${e.failure_reason ?? "unknown reason"}`);
  else if (e.passed) verdict = c.green("passed");
  else
    verdict = opts.blocking
      ? c.red(c.bold("failed"))
      : c.yellow("failed (not blocking: the organization does not require a passing evaluation)");
  if (e.violations.length < s.total_violations)
    lines.push(c.dim(`… ${s.total_violations - e.violations.length} more findings not shown`));
  // Several evaluations: say how many and name them all, so each can be looked up.
  const ids = e.evaluations && e.evaluations.length > 1 ? e.evaluations : undefined;
  const notes = [extra, ids ? `${ids.length} evaluations` : ""].filter(Boolean).join(", ");
  lines.push(`${verdict}: ${counts}${notes ? ` (${notes})` : ""}${ids ? "" : ` ${c.dim(e.id ?? "")}`}`.trimEnd());
  if (ids) lines.push(c.dim(`evaluations: ${ids.join(" ")}`));
  return lines.join("\n");
}
