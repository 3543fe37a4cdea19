// The evaluated repositories and the most recent evaluations.
import type { Evidence } from "../evidence.js";
import { COLORS, heading, paragraph, table, type Doc } from "./layout.js";

/** Rows of the evaluations table. */
const MAX_EVALUATION_ROWS = 300;

export function repositories(doc: Doc, evidence: Evidence): void {
  doc.addPage();
  heading(doc, "Evaluated repositories");
  const byRepo = new Map<string, { evals: number; failed: number; refs: Set<string>; last: string }>();
  for (const e of evidence.evaluations) {
    const r = byRepo.get(e.repository) ?? { evals: 0, failed: 0, refs: new Set<string>(), last: "" };
    r.evals++;
    if (!e.passed) r.failed++;
    r.refs.add(e.ref);
    if (e.completed_at > r.last) r.last = e.completed_at;
    byRepo.set(e.repository, r);
  }
  table(
    doc,
    [
      { header: "Repository", width: 150 },
      { header: "Evaluations", width: 65 },
      { header: "Failed", width: 50 },
      { header: "Refs", width: 140 },
      { header: "Last evaluated", width: 90 },
    ],
    [...byRepo]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, r]) => [
        name,
        String(r.evals),
        String(r.failed),
        [...r.refs].sort().join(", "),
        r.last.slice(0, 16).replace("T", " "),
      ]),
    "No evaluation completed in this period.",
  );
  heading(doc, "Evaluations", 13);
  table(
    doc,
    [
      { header: "Evaluation", width: 150 },
      { header: "Repository / ref", width: 160 },
      { header: "Result", width: 50, color: (r) => (r[2] === "Failed" ? COLORS.failing : COLORS.passed) },
      { header: "Completed", width: 135 },
    ],
    // The most recent ones: a year of CI runs would fill hundreds of pages.
    evidence.evaluations
      .slice(-MAX_EVALUATION_ROWS)
      .reverse()
      .map((e) => [
        e.id,
        `${e.repository}\n${e.ref}`,
        e.passed ? "Passed" : "Failed",
        e.completed_at.replace("T", " ").replace(/\.\d+Z$/, " UTC"),
      ]),
    "No evaluation completed in this period.",
  );
  if (evidence.evaluations.length > MAX_EVALUATION_ROWS) {
    paragraph(
      doc,
      `The ${MAX_EVALUATION_ROWS} most recent of ${evidence.evaluations.length} evaluations are listed; the OSCAL export and GET /v1/evaluations have all of them.`,
    );
  }
}
