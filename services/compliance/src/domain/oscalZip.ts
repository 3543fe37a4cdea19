// The OSCAL export: one folder per selected framework with its catalog, assessment results and
// plan of action and milestones, zipped.
import JSZip from "jszip";
import type { Evidence } from "./evidence.js";
import { buildOscalSet, type OscalContext } from "./oscal.js";

export function oscalFileNames(frameworkId: string) {
  return {
    catalog: `${frameworkId}/${frameworkId}-catalog.json`,
    assessmentResults: `${frameworkId}/${frameworkId}-assessment-results.json`,
    poam: `${frameworkId}/${frameworkId}-poam.json`,
  };
}

export async function renderOscalZip(ctx: OscalContext, evidence: Evidence): Promise<Buffer> {
  const zip = new JSZip();
  for (const fw of evidence.frameworks) {
    const set = buildOscalSet(ctx, evidence, fw);
    const names = oscalFileNames(fw.catalog.id);
    zip.file(names.catalog, JSON.stringify(set.catalog, null, 2));
    zip.file(names.assessmentResults, JSON.stringify(set.assessmentResults, null, 2));
    zip.file(names.poam, JSON.stringify(set.poam, null, 2));
  }
  // A fixed date keeps equal content byte-identical; the documents carry the real times.
  return zip.generateAsync({
    type: "nodebuffer",
    compression: "DEFLATE",
    date: new Date(evidence.generated_at),
  } as JSZip.JSZipGeneratorOptions<"nodebuffer">);
}
