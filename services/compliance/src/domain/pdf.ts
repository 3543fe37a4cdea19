// The PDF evidence report (pdfkit), one module per page section (pdf/): cover, executive summary
// with the coverage chart, per framework the control table, open violations by control, fixes and
// bypass events, and the evaluated repositories; page footers are drawn here once every page exists.
import PDFDocument from "pdfkit";
import type { Evidence } from "./evidence.js";
import { cover, type PdfContext } from "./pdf/cover.js";
import { frameworkSection } from "./pdf/framework.js";
import { COLORS, MARGIN } from "./pdf/layout.js";
import { repositories } from "./pdf/repositories.js";
import { scopePage } from "./pdf/scope.js";
import { summary } from "./pdf/summary.js";

export type { PdfContext };

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
  if (ctx.scope) {
    doc.addPage();
    scopePage(doc, ctx.scope, evidence);
  }
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
