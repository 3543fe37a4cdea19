// The PDF evidence report (pdfkit): cover, executive summary, coverage chart (vector bars),
// and per framework the control table, open violations by control, bypass events and the
// evaluated repositories. Tables wrap their cells and repeat their header on each page.
import PDFDocument from "pdfkit";
import type { Evidence, FrameworkEvidence, ControlStatus } from "./evidence.js";

type Doc = PDFKit.PDFDocument;

const COLORS = {
  ink: "#1f2933",
  muted: "#616e7c",
  rule: "#d9e2ec",
  band: "#102a43",
  accent: "#2f80ed",
  zebra: "#f5f7fa",
  passed: "#2e7d32",
  remediated: "#66bb6a",
  failing: "#c62828",
  "not-assessed": "#b0bec5",
  uncovered: "#eceff1",
};

const STATUS_LABEL: Record<ControlStatus, string> = {
  passed: "Passed",
  remediated: "Remediated",
  failing: "Open violations",
  "not-assessed": "Not assessed",
};

const MARGIN = 50;
/** Rows of the evaluations table. */
const MAX_EVALUATION_ROWS = 300;

interface Column {
  header: string;
  width: number;
  /** Optional colour per cell. */
  color?: (row: string[]) => string | undefined;
}

export interface PdfContext {
  organizationName: string;
}

function pageBottom(doc: Doc): number {
  return doc.page.height - MARGIN - 20;
}

function ensureSpace(doc: Doc, height: number): void {
  if (doc.y + height > pageBottom(doc)) doc.addPage();
}

function heading(doc: Doc, text: string, size = 18): void {
  ensureSpace(doc, size * 3);
  doc.moveDown(0.5).font("Helvetica-Bold").fontSize(size).fillColor(COLORS.band).text(text, MARGIN, doc.y);
  const y = doc.y + 3;
  doc
    .moveTo(MARGIN, y)
    .lineTo(doc.page.width - MARGIN, y)
    .lineWidth(0.8)
    .strokeColor(COLORS.accent)
    .stroke();
  doc.y = y + 8;
  doc.font("Helvetica").fontSize(10).fillColor(COLORS.ink);
}

function paragraph(doc: Doc, text: string): void {
  doc
    .font("Helvetica")
    .fontSize(10)
    .fillColor(COLORS.ink)
    .text(text, MARGIN, doc.y, { width: doc.page.width - 2 * MARGIN, lineGap: 2 });
  doc.moveDown(0.6);
}

function table(doc: Doc, columns: Column[], rows: string[][], empty: string): void {
  const pad = 4;
  const fontSize = 8.5;
  const drawHeader = () => {
    const h = 18;
    let x = MARGIN;
    doc
      .rect(
        MARGIN,
        doc.y,
        columns.reduce((s, c) => s + c.width, 0),
        h,
      )
      .fill(COLORS.band);
    doc.font("Helvetica-Bold").fontSize(fontSize).fillColor("#ffffff");
    const y = doc.y;
    for (const c of columns) {
      doc.text(c.header, x + pad, y + 5, { width: c.width - 2 * pad, lineBreak: false, ellipsis: true });
      x += c.width;
    }
    doc.y = y + h;
  };
  if (rows.length === 0) {
    doc.font("Helvetica-Oblique").fontSize(9.5).fillColor(COLORS.muted).text(empty, MARGIN, doc.y);
    doc.moveDown(0.8);
    return;
  }
  ensureSpace(doc, 40);
  drawHeader();
  rows.forEach((row, i) => {
    doc.font("Helvetica").fontSize(fontSize);
    const h =
      Math.max(...row.map((cell, j) => doc.heightOfString(cell || " ", { width: columns[j]!.width - 2 * pad }))) +
      2 * pad;
    if (doc.y + h > pageBottom(doc)) {
      doc.addPage();
      drawHeader();
    }
    const y = doc.y;
    const width = columns.reduce((s, c) => s + c.width, 0);
    if (i % 2 === 1) doc.rect(MARGIN, y, width, h).fill(COLORS.zebra);
    let x = MARGIN;
    row.forEach((cell, j) => {
      const col = columns[j]!;
      doc
        .font("Helvetica")
        .fontSize(fontSize)
        .fillColor(col.color?.(row) ?? COLORS.ink);
      doc.text(cell, x + pad, y + pad, { width: col.width - 2 * pad });
      x += col.width;
    });
    doc
      .moveTo(MARGIN, y + h)
      .lineTo(MARGIN + width, y + h)
      .lineWidth(0.4)
      .strokeColor(COLORS.rule)
      .stroke();
    doc.y = y + h;
  });
  doc.x = MARGIN;
  doc.moveDown(0.8);
}

function cover(doc: Doc, ctx: PdfContext, evidence: Evidence): void {
  const w = doc.page.width;
  doc.rect(0, 0, w, 260).fill(COLORS.band);
  doc.font("Helvetica").fontSize(12).fillColor("#9fb3c8").text("VERDICT", MARGIN, 70, { characterSpacing: 3 });
  doc
    .font("Helvetica-Bold")
    .fontSize(30)
    .fillColor("#ffffff")
    .text("Compliance evidence report", MARGIN, 100, { width: w - 2 * MARGIN });
  doc
    .font("Helvetica")
    .fontSize(14)
    .fillColor("#d9e2ec")
    .text(evidence.frameworks.map((f) => f.catalog.name).join(" · "), MARGIN, 150, { width: w - 2 * MARGIN });
  doc.rect(0, 260, w, 6).fill(COLORS.accent);
  const rows: [string, string][] = [
    ["Organization", ctx.organizationName],
    ["Reporting period", `${evidence.range.start} to ${evidence.range.end} (UTC, inclusive)`],
    ["Frameworks", evidence.frameworks.map((f) => `${f.catalog.name} ${f.catalog.version}`).join("\n")],
    ["Generated", evidence.generated_at.replace("T", " ").replace(/\.\d+Z$/, " UTC")],
    ["Report id", evidence.report_id],
  ];
  let y = 320;
  for (const [k, v] of rows) {
    doc
      .font("Helvetica-Bold")
      .fontSize(10)
      .fillColor(COLORS.muted)
      .text(k.toUpperCase(), MARGIN, y, { width: 140, characterSpacing: 0.5 });
    doc
      .font("Helvetica")
      .fontSize(12)
      .fillColor(COLORS.ink)
      .text(v, MARGIN + 150, y - 1, { width: w - 2 * MARGIN - 150 });
    y = Math.max(doc.y, y + 14) + 14;
  }
  doc
    .font("Helvetica")
    .fontSize(9)
    .fillColor(COLORS.muted)
    .text(
      "This report is generated from the results of Verdict's automated code policy evaluations. It shows which framework controls the organization's enabled policies check in code, what those checks found in the reporting period, what was fixed, and which findings were bypassed with inline suppression comments.",
      MARGIN,
      doc.page.height - 150,
      { width: w - 2 * MARGIN, lineGap: 2 },
    );
}

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
    for (const s of ["passed", "remediated", "failing", "not-assessed"] as ControlStatus[]) {
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
    [COLORS["not-assessed"], "Not assessed in period"],
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

function summary(doc: Doc, evidence: Evidence): void {
  heading(doc, "Executive summary");
  const repos = new Set(evidence.evaluations.map((e) => e.repository));
  const open = new Set<string>();
  const fixed = new Set<string>();
  const bypasses = new Set<string>();
  for (const fw of evidence.frameworks)
    for (const c of fw.controls) {
      c.open.forEach((v) => open.add(v.key));
      c.fixed.forEach((v) => fixed.add(v.key));
      c.bypasses.forEach((b) => bypasses.add(b.id));
    }
  const enabled = evidence.policies.filter((p) => p.enabled).length;
  paragraph(
    doc,
    `Between ${evidence.range.start} and ${evidence.range.end}, Verdict ran ${evidence.evaluations.length} evaluation(s) of code changes in ${repos.size} repositor${repos.size === 1 ? "y" : "ies"} against ${enabled} enabled polic${enabled === 1 ? "y" : "ies"}. ${open.size} violation(s) remain open, ${fixed.size} were fixed by a later change, and ${bypasses.size} finding(s) were bypassed with an inline verdict-ignore comment.`,
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
      { header: "Not assessed", width: 110 },
    ],
    evidence.frameworks.map((f) => [
      `${f.catalog.name} ${f.catalog.version}`,
      `${f.coverage.coverage}% (${f.coverage.covered}/${f.controls.length})`,
      String(f.counts.passed),
      String(f.counts.remediated),
      String(f.counts.failing),
      String(f.counts["not-assessed"]),
    ]),
    "No framework selected.",
  );
  paragraph(
    doc,
    "How to read this report: a control is covered when at least one enabled policy maps to it. It passed when evaluations in the period ran its policies and none reported a violation; remediated when every violation found was fixed by a later evaluation of the same repository and ref; open when the latest evaluation still reports a violation; not assessed when no evaluation in the period ran its policies.",
  );
}

function frameworkSection(doc: Doc, evidence: Evidence, fw: FrameworkEvidence): void {
  doc.addPage();
  heading(doc, `${fw.catalog.name} ${fw.catalog.version}`, 20);
  paragraph(
    doc,
    `${fw.coverage.covered} of ${fw.controls.length} controls (${fw.coverage.coverage}%) are covered by enabled policies. Authoritative text: ${fw.catalog.source_url}`,
  );
  heading(doc, "Controls", 13);
  table(
    doc,
    [
      { header: "Control", width: 80 },
      { header: "Title", width: 132 },
      { header: "Covered", width: 45 },
      {
        header: "Result",
        width: 68,
        color: (r) =>
          (
            ({ "Open violations": COLORS.failing, Passed: COLORS.passed, Remediated: COLORS.passed }) as Record<
              string,
              string
            >
          )[r[3]!],
      },
      { header: "Policies", width: 120 },
      { header: "Evals", width: 50 },
    ],
    fw.controls.map((c) => [
      c.control.id,
      c.control.title,
      c.covered ? "Yes" : "No",
      STATUS_LABEL[c.status],
      c.policies.join(", ") || "-",
      String(c.evaluations.length),
    ]),
    "This framework has no controls.",
  );
  heading(doc, "Open violations by control", 13);
  table(
    doc,
    [
      { header: "Control", width: 55 },
      { header: "Policy / rule", width: 100 },
      { header: "Location", width: 140 },
      { header: "Severity", width: 45 },
      { header: "Finding", width: 155 },
    ],
    fw.controls.flatMap((c) =>
      c.open.map((v) => [
        c.control.id,
        `${v.policy_id}\n${v.rule_id}`,
        `${v.repository} (${v.ref})\n${v.file}:${v.line}`,
        v.severity,
        `${v.message}\nLast seen ${v.last_seen.evaluation_id}`,
      ]),
    ),
    "No open violations in this period.",
  );
  const fixed = fw.controls.flatMap((c) =>
    c.fixed.map((v) => [
      c.control.id,
      v.policy_id,
      `${v.repository} (${v.ref})\n${v.file}`,
      `${v.fixed_by!.evaluation_id}\n${v.fixed_by!.at.slice(0, 10)}`,
    ]),
  );
  heading(doc, "Fixed in this period", 13);
  table(
    doc,
    [
      { header: "Control", width: 60 },
      { header: "Policy", width: 110 },
      { header: "Location", width: 175 },
      { header: "Fixed by evaluation", width: 150 },
    ],
    fixed,
    "No violation was fixed in this period.",
  );
  heading(doc, "Bypass events", 13);
  table(
    doc,
    [
      { header: "Control", width: 55 },
      { header: "Policy / rule", width: 105 },
      { header: "Location", width: 150 },
      { header: "When", width: 65 },
      { header: "Reason", width: 120 },
    ],
    fw.controls.flatMap((c) =>
      c.bypasses.map((b) => [
        c.control.id,
        `${b.policy_id}\n${b.rule_id}`,
        `${b.repository} (${b.ref})\n${b.file}:${b.line}`,
        b.bypassed_at.slice(0, 10),
        b.reason || "(no reason given)",
      ]),
    ),
    "No finding of this framework's policies was bypassed in this period.",
  );
}

function repositories(doc: Doc, evidence: Evidence): void {
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

export async function renderPdf(ctx: PdfContext, evidence: Evidence): Promise<Buffer> {
  const doc = new PDFDocument({
    size: "A4",
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    bufferPages: true,
    info: {
      Title: `Compliance evidence report ${evidence.range.start} to ${evidence.range.end}`,
      Author: "Verdict",
      Subject: evidence.frameworks.map((f) => f.catalog.name).join(", "),
      CreationDate: new Date(evidence.generated_at),
    },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  cover(doc, ctx, evidence);
  doc.addPage();
  summary(doc, evidence);
  for (const fw of evidence.frameworks) frameworkSection(doc, evidence, fw);
  repositories(doc, evidence);
  // Footers on every page but the cover.
  const range = doc.bufferedPageRange();
  for (let i = 1; i < range.count; i++) {
    doc.switchToPage(range.start + i);
    const y = doc.page.height - MARGIN + 10;
    doc.page.margins.bottom = 0;
    doc
      .moveTo(MARGIN, y - 6)
      .lineTo(doc.page.width - MARGIN, y - 6)
      .lineWidth(0.4)
      .strokeColor(COLORS.rule)
      .stroke();
    doc.font("Helvetica").fontSize(8).fillColor(COLORS.muted);
    doc.text(
      `${ctx.organizationName} · Compliance evidence ${evidence.range.start} to ${evidence.range.end}`,
      MARGIN,
      y,
      { width: 350, lineBreak: false },
    );
    doc.text(`Page ${i + 1} of ${range.count}`, doc.page.width - MARGIN - 100, y, {
      width: 100,
      align: "right",
      lineBreak: false,
    });
    doc.page.margins.bottom = MARGIN;
  }
  doc.end();
  return done;
}
