// The cover page: organization, period, frameworks.
import type { Evidence } from "../evidence.js";
import { COLORS, MARGIN, type Doc } from "./layout.js";
import type { ReportScope } from "./scope.js";

export interface PdfContext {
  organizationName: string;
  /** The scope and system description page after the cover (pdf/scope.ts). */
  scope?: ReportScope;
}

export function cover(doc: Doc, ctx: PdfContext, evidence: Evidence): void {
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
