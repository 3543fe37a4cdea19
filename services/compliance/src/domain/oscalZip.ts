// The OSCAL export: one folder per selected framework with its catalog, assessment results and
// plan of action and milestones, zipped, with the evidence files they cite (evidence/).
import JSZip from "jszip";
import type { Evidence, ViolationFact } from "./evidence.js";
import { citeEvidence, evidenceFiles } from "./oscalEvidence.js";
import { buildOscalSet, type OscalContext } from "./oscal.js";

export function oscalFileNames(frameworkId: string) {
  return {
    catalog: `${frameworkId}/${frameworkId}-catalog.json`,
    assessmentResults: `${frameworkId}/${frameworkId}-assessment-results.json`,
    poam: `${frameworkId}/${frameworkId}-poam.json`,
  };
}

/** `violations`: those of the period's evaluations, for the evidence files the documents cite (oscalEvidence.ts). */
export async function renderOscalZip(
  ctx: OscalContext,
  evidence: Evidence,
  violations: ViolationFact[],
): Promise<Buffer> {
  const zip = new JSZip();
  const files = evidenceFiles(evidence.evaluations, violations);
  const cited = new Set<string>();
  for (const fw of evidence.frameworks) {
    const set = buildOscalSet(ctx, evidence, fw);
    for (const document of [set.assessmentResults, set.poam])
      for (const id of citeEvidence(document, files, ctx.organizationId)) cited.add(id);
    const names = oscalFileNames(fw.catalog.id);
    zip.file(names.catalog, JSON.stringify(set.catalog, null, 2));
    zip.file(names.assessmentResults, JSON.stringify(set.assessmentResults, null, 2));
    zip.file(names.poam, JSON.stringify(set.poam, null, 2));
  }
  for (const id of cited) {
    const file = files.get(id)!;
    zip.file(file.path, file.content);
  }
  // A fixed date keeps equal content byte-identical; the documents carry the real times.
  return zip.generateAsync({
    type: "nodebuffer",
    compression: "DEFLATE",
    date: new Date(evidence.generated_at),
  } as JSZip.JSZipGeneratorOptions<"nodebuffer">);
}
