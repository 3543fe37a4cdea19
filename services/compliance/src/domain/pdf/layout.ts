// The report's look and its building blocks: colours, margins, headings, paragraphs, and tables
// that wrap their cells and repeat their header on each page.
import type { ControlStatus } from "../evidence.js";

export type Doc = PDFKit.PDFDocument;

export const COLORS = {
  ink: "#1f2933",
  muted: "#616e7c",
  rule: "#d9e2ec",
  band: "#102a43",
  accent: "#2f80ed",
  zebra: "#f5f7fa",
  passed: "#2e7d32",
  remediated: "#66bb6a",
  failing: "#c62828",
  "no-evidence": "#b0bec5",
  uncovered: "#eceff1",
};

export const STATUS_LABEL: Record<ControlStatus, string> = {
  passed: "Passed",
  remediated: "Remediated",
  failing: "Open violations",
  "no-evidence": "No evidence",
};

export const MARGIN = 50;

interface Column {
  header: string;
  width: number;
  /** Optional colour per cell. */
  color?: (row: string[]) => string | undefined;
}

function pageBottom(doc: Doc): number {
  return doc.page.height - MARGIN - 20;
}

export function ensureSpace(doc: Doc, height: number): void {
  if (doc.y + height > pageBottom(doc)) doc.addPage();
}

export function heading(doc: Doc, text: string, size = 18): void {
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

export function paragraph(doc: Doc, text: string): void {
  doc
    .font("Helvetica")
    .fontSize(10)
    .fillColor(COLORS.ink)
    .text(text, MARGIN, doc.y, { width: doc.page.width - 2 * MARGIN, lineGap: 2 });
  doc.moveDown(0.6);
}

export function table(doc: Doc, columns: Column[], rows: string[][], empty: string): void {
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
