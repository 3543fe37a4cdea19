// The executive summary: headline figures and the coverage chart (vector bars) per framework.
import type { ControlStatus, Evidence, FrameworkEvidence } from "../evidence.js";
import { COLORS, ensureSpace, heading, MARGIN, paragraph, table, type Doc } from "./layout.js";

function statCards(doc: Doc, stats: [string, string, string?][]): void {
  const gap = 10;
  const width = (doc.page.width - 2 * MARGIN - gap * (stats.length - 1)) / stats.length;
  const y = doc.y;
  stats.forEach(([value, label, color], i) => {
    const x = MARGIN + i * (width + gap);
    doc.roundedRect(x, y, width, 62, 4).fillAndStroke("#ffffff", COLORS.rule);
    doc
      .font("Helvetica-Bold")
      .fontSize(22)
      .fillColor(color ?? COLORS.band)
      .text(value, x, y + 10, { width, align: "center" });
    doc
      .font("Helvetica")
      .fontSize(8.5)
      .fillColor(COLORS.muted)
      .text(label, x + 4, y + 40, { width: width - 8, align: "center" });
  });
  doc.y = y + 76;
  doc.x = MARGIN;
}

function coverageChart(doc: Doc, frameworks: FrameworkEvidence[]): void {
  const labelW = 150;
  const barW = doc.page.width - 2 * MARGIN - labelW - 60;
  const barH = 12;
  ensureSpace(doc, 60 + frameworks.length * 40);
  doc
    .font("Helvetica-Bold")
    .fontSize(11)
    .fillColor(COLORS.ink)
    .text("Control coverage and results per framework", MARGIN, doc.y);
  doc.moveDown(0.6);
  for (const fw of frameworks) {
    doc.font("Helvetica-Bold").fontSize(8.5);
    const labelH = doc.heightOfString(fw.catalog.name, { width: labelW - 10 });
    const rowH = Math.max(labelH, barH + 11) + 12;
    ensureSpace(doc, rowH);
    const y = doc.y;
    const total = Math.max(fw.controls.length, 1);
    const x0 = MARGIN + labelW;
    doc.fillColor(COLORS.ink).text(fw.catalog.name, MARGIN, y, { width: labelW - 10 });
    // Coverage bar: controls covered by enabled policies.
    doc.rect(x0, y, barW, barH).fill(COLORS.uncovered);
    doc.rect(x0, y, (barW * fw.coverage.covered) / total, barH).fill(COLORS.accent);
    // Result bar: controls by result in the period.
    let x = x0;
    for (const s of ["passed", "remediated", "failing", "no-evidence"] as ControlStatus[]) {
      const w = (barW * fw.counts[s]) / total;
      if (w > 0) doc.rect(x, y + barH + 3, w, 6).fill(COLORS[s]);
      x += w;
    }
    doc
      .font("Helvetica-Bold")
      .fontSize(9)
      .fillColor(COLORS.ink)
      .text(`${fw.coverage.coverage}%`, x0 + barW + 8, y + 1, { width: 50, lineBreak: false });
    doc
      .font("Helvetica")
      .fontSize(7)
      .fillColor(COLORS.muted)
      .text(`${fw.coverage.covered} of ${fw.controls.length}`, x0 + barW + 8, y + barH + 2, {
        width: 50,
        lineBreak: false,
      });
    doc.y = y + rowH;
  }
  // Legend, wrapped to the text width.
  const items: [string, string][] = [
    [COLORS.accent, "Covered by enabled policies"],
    [COLORS.passed, "Passed every check"],
    [COLORS.remediated, "Violations fixed"],
    [COLORS.failing, "Open violations"],
    [COLORS["no-evidence"], "No evidence in period"],
  ];
  doc.font("Helvetica").fontSize(7.5);
  let x = MARGIN;
  let y = doc.y;
  for (const [color, label] of items) {
    const w = doc.widthOfString(label) + 24;
    if (x + w > doc.page.width - MARGIN) {
      x = MARGIN;
      y += 13;
    }
    doc.rect(x, y + 1, 8, 8).fill(color);
    doc.fillColor(COLORS.muted).text(label, x + 11, y + 1, { lineBreak: false });
    x += w;
  }
  doc.y = y + 22;
  doc.x = MARGIN;
}

export function summary(doc: Doc, evidence: Evidence): void {
  heading(doc, "Executive summary");
  const repos = new Set(evidence.evaluations.map((e) => e.repository));
  const open = new Set<string>();
  const fixed = new Set<string>();
  const suppressed = new Set<string>();
  const bypasses = new Set<string>();
  for (const fw of evidence.frameworks)
    for (const c of fw.controls) {
      c.open.forEach((v) => open.add(v.key));
      c.fixed.forEach((v) => fixed.add(v.key));
      c.suppressed.forEach((v) => suppressed.add(v.key));
      c.bypasses.forEach((b) => bypasses.add(b.id));
    }
  const enabled = evidence.policies.filter((p) => p.enabled).length;
  paragraph(
    doc,
    `Between ${evidence.range.start} and ${evidence.range.end}, Verdict ran ${evidence.evaluations.length} evaluation(s) of code changes in ${repos.size} repositor${repos.size === 1 ? "y" : "ies"} against ${enabled} enabled polic${enabled === 1 ? "y" : "ies"}. ${open.size} violation(s) remain open, ${fixed.size} were fixed by a later change, ${suppressed.size} were silenced in code rather than fixed, and ${bypasses.size} finding(s) were bypassed with an inline verdict-ignore comment.`,
  );
  statCards(doc, [
    [String(evidence.evaluations.length), "Evaluations"],
    [String(repos.size), "Repositories"],
    [String(open.size), "Open violations", open.size > 0 ? COLORS.failing : COLORS.passed],
    [String(fixed.size), "Fixed violations", COLORS.passed],
    [String(bypasses.size), "Bypass events", bypasses.size > 0 ? "#b26a00" : COLORS.band],
  ]);
  coverageChart(doc, evidence.frameworks);
  table(
    doc,
    [
      { header: "Framework", width: 150 },
      { header: "Coverage", width: 60 },
      { header: "Passed", width: 55 },
      { header: "Remediated", width: 65 },
      { header: "Open", width: 55, color: (r) => (r[4] !== "0" ? COLORS.failing : undefined) },
      { header: "No evidence", width: 110 },
    ],
    evidence.frameworks.map((f) => [
      `${f.catalog.name} ${f.catalog.version}`,
      `${f.coverage.coverage}% (${f.coverage.covered}/${f.controls.length})`,
      String(f.counts.passed),
      String(f.counts.remediated),
      String(f.counts.failing),
      String(f.counts["no-evidence"]),
    ]),
    "No framework selected.",
  );
  paragraph(
    doc,
    "How to read this report: a control is covered when at least one enabled policy maps to it. It passed when, in the period, one of its enabled policies ran over a file it could apply to (a file of the languages and paths the policy is written for) and none reported a violation; remediated when every violation found was fixed by a later evaluation of the same repository and ref; open when the latest evaluation still reports a violation; no evidence when no evaluation in the period read a file its enabled policies could apply to: a policy that found nothing in files it could never match proves nothing. A violation that a later evaluation still finds but an inline verdict-ignore comment silences is suppressed, never fixed.",
  );
}
