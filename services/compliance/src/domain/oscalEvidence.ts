// The evidence an OSCAL export cites, with its digests: every evaluation of the period is written
// into the ZIP as it was recorded (evidence/<evaluation id>.json: the evaluation and its
// violations), and each document that cites it (an observation of the assessment results or the
// POA&M) gets a back-matter resource whose rlink names that file with its SHA-256 (OSCAL 1.1.2
// `rlinks[].hashes`), linked from the observation's relevant-evidence. An auditor checks a file
// against the digest with `sha256sum`; the ZIP as a whole carries the report's signature.
import { createHash } from "node:crypto";
import type { EvaluationFact, ViolationFact } from "./evidence.js";
import { stableUuid } from "./oscal.js";

type Json = Record<string, unknown>;

/**
 * SHA-256 named by its W3C XML Security digest method URI, which OSCAL 1.1.2 allows beside its
 * own names: its constraint for `SHA-256` asks for 32 hex digits (the digest's byte count, not
 * its 64 hex digits; usnistgov/OSCAL#2053), so a true SHA-256 under that name fails NIST's
 * validator.
 */
export const SHA256_ALGORITHM = "http://www.w3.org/2001/04/xmlenc#sha256";

/** The folder of the evidence files, at the ZIP's root (the documents sit one folder below). */
export const EVIDENCE_DIR = "evidence";

export interface EvidenceFile {
  /** Path in the ZIP. */
  path: string;
  content: string;
  sha256: string;
}

/** One file per evaluation: its recorded result and its violations (no code: snippets are never evidence files). */
export function evidenceFiles(evaluations: EvaluationFact[], violations: ViolationFact[]): Map<string, EvidenceFile> {
  const byEvaluation = new Map<string, ViolationFact[]>();
  for (const v of violations) byEvaluation.set(v.evaluation_id, [...(byEvaluation.get(v.evaluation_id) ?? []), v]);
  const files = new Map<string, EvidenceFile>();
  for (const e of evaluations) {
    const record = {
      evaluation: {
        id: e.id,
        repository: e.repository,
        ref: e.ref,
        completed_at: e.completed_at,
        passed: e.passed,
        policies: e.policies,
      },
      violations: (byEvaluation.get(e.id) ?? [])
        .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .map((v) => ({
          id: v.id,
          policy_id: v.policy_id,
          rule_id: v.rule_id,
          severity: v.severity,
          file: v.file,
          line: v.line,
          message: v.message,
        })),
    };
    const content = `${JSON.stringify(record, null, 2)}\n`;
    files.set(e.id, {
      path: `${EVIDENCE_DIR}/${e.id}.json`,
      content,
      sha256: createHash("sha256").update(content).digest("hex"),
    });
  }
  return files;
}

/**
 * Adds to an OSCAL document (assessment results or POA&M, one folder below the ZIP's root) a
 * back-matter resource per evaluation its observations cite, with the evidence file's digest,
 * and links each observation to it. Answers the evaluation ids cited.
 */
export function citeEvidence(document: Json, files: Map<string, EvidenceFile>, organizationId: string): string[] {
  const root = Object.values(document)[0] as Json;
  const results = (root.results as Json[] | undefined) ?? [];
  const observations = [root, ...results].flatMap((r) => (r.observations as Json[] | undefined) ?? []);
  const resources: Json[] = [];
  const cited = new Set<string>();
  for (const observation of observations) {
    const props = (observation.props as { name: string; value: string }[] | undefined) ?? [];
    const evaluationId = props.find((p) => p.name === "evaluation-id")?.value;
    const file = evaluationId ? files.get(evaluationId) : undefined;
    if (!evaluationId || !file) continue;
    const uuid = stableUuid("evidence", organizationId, evaluationId);
    observation["relevant-evidence"] = [
      ...((observation["relevant-evidence"] as Json[] | undefined) ?? []),
      {
        href: `#${uuid}`,
        description: `The evaluation as recorded for this report (${file.path} in this export), with its SHA-256.`,
      },
    ];
    if (cited.has(evaluationId)) continue;
    cited.add(evaluationId);
    resources.push({
      uuid,
      title: `Evaluation ${evaluationId}: the recorded result`,
      rlinks: [
        {
          href: `../${file.path}`,
          "media-type": "application/json",
          hashes: [{ algorithm: SHA256_ALGORITHM, value: file.sha256 }],
        },
      ],
    });
  }
  const backMatter = (root["back-matter"] as Json | undefined) ?? {};
  root["back-matter"] = {
    ...backMatter,
    resources: [...((backMatter.resources as Json[] | undefined) ?? []), ...resources],
  };
  return [...cited];
}
