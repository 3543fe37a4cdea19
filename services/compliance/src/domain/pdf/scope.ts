// The scope and system description page, after the cover: what the system is and what the
// evidence covers (the organization's own words, from its settings), what the report itself
// covers (period, frameworks, repositories, enabled policies), and how to check the file's
// integrity (its signature by the instance's report key).
import type { Evidence } from "../evidence.js";
import { COLORS, MARGIN, heading, paragraph, type Doc } from "./layout.js";

export interface ReportScope {
  /** The organization's settings (empty: not described). */
  systemDescription: string;
  reportScope: string;
  /** The report key that signs this file: its id and where its public half is served. */
  keyId: string;
  publicKeyUrl: string;
}

const NOT_DESCRIBED = (field: string) =>
  `Not described. An organization admin sets it in the organization settings (PATCH /v1/organization, settings.${field}).`;

function subheading(doc: Doc, text: string): void {
  doc.moveDown(0.4).font("Helvetica-Bold").fontSize(12).fillColor(COLORS.band).text(text);
  doc.moveDown(0.3);
}

/** Label and value rows, as on the cover. */
function facts(doc: Doc, rows: [string, string][]): void {
  const width = doc.page.width - 2 * MARGIN - 140;
  for (const [label, value] of rows) {
    const y = doc.y;
    doc.font("Helvetica-Bold").fontSize(9).fillColor(COLORS.muted).text(label, MARGIN, y, { width: 130 });
    doc
      .font("Helvetica")
      .fontSize(10)
      .fillColor(COLORS.ink)
      .text(value, MARGIN + 140, y, { width });
    doc.y = Math.max(doc.y, y + 12) + 4;
  }
  doc.x = MARGIN;
  doc.moveDown(0.4);
}

export function scopePage(doc: Doc, scope: ReportScope, evidence: Evidence): void {
  heading(doc, "Scope and system description");
  subheading(doc, "System description");
  paragraph(doc, scope.systemDescription.trim() || NOT_DESCRIBED("system_description"));
  subheading(doc, "Scope");
  paragraph(doc, scope.reportScope.trim() || NOT_DESCRIBED("report_scope"));
  subheading(doc, "What this report covers");
  const repositories = [...new Set(evidence.evaluations.map((e) => e.repository))].sort();
  const enabled = evidence.policies.filter((p) => p.enabled).length;
  facts(doc, [
    ["Reporting period", `${evidence.range.start} to ${evidence.range.end} (UTC, inclusive)`],
    ["Frameworks", evidence.frameworks.map((f) => `${f.catalog.name} ${f.catalog.version}`).join("\n")],
    [
      "Repositories evaluated",
      repositories.length ? `${repositories.length}: ${repositories.join(", ")}` : "None in the period",
    ],
    ["Evaluations", String(evidence.evaluations.length)],
    ["Policies enabled", `${enabled} of ${evidence.policies.length} (as configured when the report was made)`],
  ]);
  subheading(doc, "Integrity");
  paragraph(
    doc,
    `This file is signed with the Verdict instance's Ed25519 report key ${scope.keyId}. ` +
      `The report (GET /v1/compliance/reports/${evidence.report_id}) gives the file's SHA-256 and its detached signature; ` +
      `the public key is served at ${scope.publicKeyUrl}. To check that this file came from the instance unchanged:`,
  );
  for (const command of [
    "verdict reports verify FILE",
    "openssl pkeyutl -verify -pubin -inkey verdict-report-key.pem -rawin -in FILE -sigfile FILE.sig",
  ])
    doc
      .font("Courier")
      .fontSize(8.5)
      .fillColor(COLORS.ink)
      .text(command, MARGIN + 10, doc.y, { width: doc.page.width - 2 * MARGIN - 10, lineBreak: false });
}
