// Entry point of a report worker thread (piscina calls the default export with each job): the
// evidence is assembled and rendered here, off the thread that answers requests (a PDF of every
// framework takes seconds of CPU).
import { assembleEvidence, type EvidenceInput } from "./domain/evidence.js";
import { renderOscalZip } from "./domain/oscalZip.js";
import { renderPdf } from "./domain/pdf.js";
import type { ReportScope } from "./domain/pdf/scope.js";

export interface RenderJob {
  format: "pdf" | "oscal";
  input: EvidenceInput;
  organizationName: string;
  apiBaseUrl: string;
  /** The PDF's scope and system description page. */
  scope?: ReportScope;
}

export default async function render(job: RenderJob): Promise<Uint8Array> {
  const evidence = assembleEvidence(job.input);
  if (job.format === "pdf") return renderPdf({ organizationName: job.organizationName, scope: job.scope }, evidence);
  return renderOscalZip(
    { organizationId: job.input.organizationId, organizationName: job.organizationName, apiBaseUrl: job.apiBaseUrl },
    evidence,
    job.input.violations,
  );
}
