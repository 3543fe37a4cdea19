// The evidence files an OSCAL export cites and their digests: each back-matter resource's SHA-256
// is that of the file it names in the ZIP, every cited evaluation has one, and the documents
// with them still pass NIST's OSCAL 1.1.2 JSON schemas and liboscal-java's constraints.
import { describe, expect, it } from "@jest/globals";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import JSZip from "jszip";
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import { catalogById } from "./catalogs/index.js";
import { oscalFileNames, renderOscalZip } from "./oscalZip.js";
import { SHA256_ALGORITHM } from "./oscalEvidence.js";
import { EVALUATIONS, VIOLATIONS, sampleEvidence } from "../../test/fixtures.js";
import { OSCAL_SCHEMAS, validateWithLiboscal } from "../../../../test/support/oscal.js";

type Json = Record<string, any>;
const ctx = { organizationId: "org_test", organizationName: "Acme Corp", apiBaseUrl: "http://localhost:8080/v1" };
const FRAMEWORKS = ["nist-ssdf", "soc2"];

describe("OSCAL evidence digests", () => {
  it("cite every evaluation through a back-matter resource whose SHA-256 is the file's in the ZIP, and validate", async () => {
    const evidence = sampleEvidence(FRAMEWORKS.map((id) => catalogById(id)!));
    const zip = await JSZip.loadAsync(await renderOscalZip(ctx, evidence, VIOLATIONS));
    const ajv = new Ajv({ allErrors: true, strict: false });
    (addFormatsModule as unknown as (a: Ajv) => void)(ajv);
    const schema = (f: string) => ajv.compile(JSON.parse(readFileSync(join(OSCAL_SCHEMAS, f), "utf8")));
    const validate = { ar: schema("oscal-ar_schema.json"), poam: schema("oscal-poam_schema.json") };
    const dir = mkdtempSync(join(tmpdir(), "oscal-evidence-"));
    const written: string[] = [];
    const cited = new Set<string>();
    try {
      for (const id of FRAMEWORKS) {
        const names = oscalFileNames(id);
        for (const [kind, name] of [
          ["ar", names.assessmentResults],
          ["poam", names.poam],
        ] as const) {
          const text = await zip.file(name)!.async("string");
          const doc = JSON.parse(text) as Json;
          expect({ name, errors: validate[kind](doc) ? [] : validate[kind].errors }).toEqual({ name, errors: [] });
          const root = Object.values(doc)[0] as Json;
          const resources = new Map<string, Json>(root["back-matter"].resources.map((r: Json) => [r.uuid, r]));
          const observations: Json[] = [...(root.observations ?? []), ...(root.results?.[0]?.observations ?? [])];
          expect(observations.length).toBeGreaterThan(0);
          for (const o of observations) {
            const link = o["relevant-evidence"].find((e: Json) => e.href.startsWith("#"));
            const resource = resources.get(link.href.slice(1))!;
            const [rlink] = resource.rlinks;
            expect(rlink).toMatchObject({
              "media-type": "application/json",
              hashes: [{ algorithm: SHA256_ALGORITHM }],
            });
            // The href is relative to the document; the file is in the ZIP, and its digest is the one given.
            const path = posix.normalize(posix.join(posix.dirname(name), rlink.href));
            const file = await zip.file(path)!.async("nodebuffer");
            expect(createHash("sha256").update(file).digest("hex")).toBe(rlink.hashes[0].value);
            const record = JSON.parse(file.toString("utf8"));
            const evaluationId = o.props.find((p: Json) => p.name === "evaluation-id").value;
            expect(record.evaluation.id).toBe(evaluationId);
            expect(record.violations.map((v: Json) => v.id).sort()).toEqual(
              VIOLATIONS.filter((v) => v.evaluation_id === evaluationId)
                .map((v) => v.id)
                .sort(),
            );
            cited.add(evaluationId);
          }
          const file = join(dir, `${id}-${kind}.json`);
          writeFileSync(file, text);
          written.push(file);
        }
      }
      // Every evaluation of the sample ran a policy of these frameworks: each is cited, once per file.
      expect([...cited].sort()).toEqual(EVALUATIONS.map((e) => e.id).sort());
      expect(Object.keys(zip.files).filter((f) => f.startsWith("evidence/") && !f.endsWith("/"))).toHaveLength(
        cited.size,
      );
      const result = await validateWithLiboscal(written);
      expect(result.output).not.toMatch(/^(ERROR|CRITICAL|INVALID|LOAD-FAILED) /m);
      expect(result.output.match(/^VALID /gm)).toHaveLength(written.length);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
