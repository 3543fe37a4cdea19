// OSCAL structure, stable uuids, token prefixes, and validation of every generated document
// against NIST's OSCAL 1.1.2 JSON schemas and liboscal-java (installed by
// scripts/install-oscal-tools.sh) and compliance-trestle (scripts/install-test-tools.sh).
import { describe, expect, it } from "@jest/globals";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import JSZip from "jszip";
import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import { CATALOGS, catalogById } from "./catalogs/index.js";
import { buildOscalSet, controlTokens, oscalToken, stableUuid, VERDICT_NS } from "./oscal.js";
import { oscalFileNames, renderOscalZip } from "./oscalZip.js";
import { DIGIT_CATALOG, VIOLATIONS, deviationEvidence, sampleEvidence } from "../../test/fixtures.js";
import { OSCAL_SCHEMAS, trestleWorkspace, validateWithLiboscal } from "../../../../test/support/oscal.js";

type Json = Record<string, any>;
const ctx = { organizationId: "org_test", organizationName: "Acme Corp", apiBaseUrl: "http://localhost:8080/v1" };
const SCHEMAS = `${OSCAL_SCHEMAS}/`;
const catalogs = [
  catalogById("nist-ssdf")!,
  catalogById("soc2")!,
  catalogById("owasp-asvs")!,
  catalogById("hipaa")!,
  DIGIT_CATALOG,
];

function validators(): Record<"catalog" | "ar" | "poam", ValidateFunction> {
  if (!existsSync(SCHEMAS)) throw new Error("OSCAL schemas missing: run bash scripts/install-oscal-tools.sh");
  const ajv = new Ajv({ allErrors: true, strict: false });
  (addFormatsModule as unknown as (a: Ajv) => void)(ajv);
  const load = (f: string) => ajv.compile(JSON.parse(readFileSync(`${SCHEMAS}${f}`, "utf8")));
  return {
    catalog: load("oscal-catalog_schema.json"),
    ar: load("oscal-ar_schema.json"),
    poam: load("oscal-poam_schema.json"),
  };
}

describe("OSCAL tokens", () => {
  it("prefixes ids that do not start with a letter and folds parentheses", () => {
    expect(oscalToken("PW.5.1")).toBe("PW.5.1");
    expect(oscalToken("CC6.1")).toBe("CC6.1");
    expect(oscalToken("164.312(a)(1)")).toBe("ctl-164.312.a.1");
    expect(oscalToken("164.308(a)(1)(ii)(B)")).toBe("ctl-164.308.a.1.ii.B");
    expect(oscalToken("CWE-79")).toBe("CWE-79");
    expect(oscalToken("A 1/2")).toBe("A-1-2");
  });

  it("keeps tokens unique within a catalog", () => {
    const tokens = controlTokens({
      ...DIGIT_CATALOG,
      controls: [
        { id: "1.a", title: "x" },
        { id: "1(a)", title: "y" },
      ],
    });
    expect(new Set(tokens.values()).size).toBe(2);
  });
});

describe("OSCAL documents", () => {
  it("are valid OSCAL 1.1.2 (NIST JSON schemas) for every built-in catalog and a digit-leading one", () => {
    const v = validators();
    const ev = deviationEvidence([...CATALOGS, DIGIT_CATALOG]);
    for (const fw of ev.frameworks) {
      const set = buildOscalSet(ctx, ev, fw);
      for (const [doc, validate] of [
        [set.catalog, v.catalog],
        [set.assessmentResults, v.ar],
        [set.poam, v.poam],
      ] as const) {
        const ok = validate(doc);
        expect({ framework: fw.catalog.id, errors: ok ? [] : validate.errors }).toEqual({
          framework: fw.catalog.id,
          errors: [],
        });
      }
    }
  });

  it("pass NIST liboscal-java's OSCAL 1.1.2 constraint validation with zero errors, for all built-in catalogs", async () => {
    const dir = mkdtempSync(join(tmpdir(), "oscal-"));
    try {
      // With every deviation: suppressed, accepted-risk and false-positive findings.
      const ev = deviationEvidence([...CATALOGS, DIGIT_CATALOG]);
      const files: string[] = [];
      for (const fw of ev.frameworks) {
        const set = buildOscalSet(ctx, ev, fw);
        for (const [kind, doc] of Object.entries(set)) {
          const file = join(dir, `${fw.catalog.id}-${kind}.json`);
          writeFileSync(file, JSON.stringify(doc));
          files.push(file);
        }
      }
      const result = await validateWithLiboscal(files);
      expect(result.output).not.toMatch(/^(ERROR|CRITICAL|INVALID|LOAD-FAILED) /m);
      expect(result.output.match(/^VALID /gm)).toHaveLength(files.length);
      expect(result.ok).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("give each POA&M item still to act on its milestone: a milestone task of its risk's response, and the risk's deadline", () => {
    const ev = deviationEvidence([catalogById("soc2")!]);
    const plan = (buildOscalSet(ctx, ev, ev.frameworks[0]!).poam as Json)["plan-of-action-and-milestones"];
    const riskOf = new Map((plan.risks as Json[]).map((r) => [r.uuid, r]));
    const milestones = (plan["poam-items"] as Json[]).map((i) => {
      const risk = riskOf.get(i["related-risks"][0]["risk-uuid"])!;
      const task = risk.remediations[0].tasks?.[0];
      return JSON.stringify([
        i.props.find((p: Json) => p.name === "remediation-status").value,
        task && [task.type, task.props[0].value, task.timing["on-date"].date, risk.deadline],
      ]);
    });
    // Open since 2 March (severity error: 30 days), suppressed since 10 March, accepted until 30 June.
    expect(new Set(milestones)).toEqual(
      new Set(
        [
          ["open", ["milestone", "remediation-target", "2026-04-01T10:00:00.000Z", "2026-04-01T10:00:00.000Z"]],
          ["completed", undefined],
          ["suppressed", ["milestone", "remediation-target", "2026-04-09T10:00:00.000Z", "2026-04-09T10:00:00.000Z"]],
          [
            "accepted-risk",
            ["milestone", "risk-acceptance-expiry", "2026-06-30T00:00:00.000Z", "2026-06-30T00:00:00.000Z"],
          ],
          ["false-positive", undefined],
        ].map((m) => JSON.stringify(m)),
      ),
    );
  });

  it("pass compliance-trestle's validation (trestle validate) for every framework, deviations and milestones included", async () => {
    // One evidence set with a finding of every state, every built-in framework's three documents.
    const ev = deviationEvidence([...CATALOGS]);
    const docs = ev.frameworks.flatMap((fw) => {
      const set = buildOscalSet(ctx, ev, fw);
      return [
        { model: "catalog" as const, name: fw.catalog.id, doc: set.catalog },
        { model: "assessment-results" as const, name: fw.catalog.id, doc: set.assessmentResults },
        { model: "plan-of-action-and-milestones" as const, name: fw.catalog.id, doc: set.poam },
      ];
    });
    const soc2 = (docs.find((d) => d.name === "soc2" && d.model === "plan-of-action-and-milestones")!.doc as Json)[
      "plan-of-action-and-milestones"
    ];
    const states = (soc2["poam-items"] as Json[]).map(
      (i) => i.props.find((p: Json) => p.name === "remediation-status").value,
    );
    expect(new Set(states)).toEqual(new Set(["open", "completed", "suppressed", "accepted-risk", "false-positive"]));
    expect(JSON.stringify(soc2.risks)).toContain('"type":"milestone"');
    // A required field missing (a catalog's metadata without its title): trestle must reject it.
    const broken = structuredClone(docs[0]!.doc) as Json;
    delete broken.catalog.metadata.title;
    const [every, rejected] = await Promise.all(
      [docs, [{ model: "catalog" as const, name: "broken", doc: broken }]].map(async (set) => {
        const trestle = await trestleWorkspace();
        try {
          return await trestle.validateAll(set);
        } finally {
          trestle.destroy();
        }
      }),
    );
    expect({ ok: every!.ok, output: every!.output }).toMatchObject({ ok: true });
    expect(every!.output.match(/^VALID: /gm)).toHaveLength(docs.length);
    expect(rejected!.ok).toBe(false);
    expect(rejected!.output).toMatch(/metadata -> title\s+field required/);
  });

  it("carry the evidence: reviewed controls, findings, risks for open violations and bypasses, POA&M items", () => {
    const ev = sampleEvidence(catalogs);
    const fw = ev.frameworks.find((f) => f.catalog.id === "nist-ssdf")!;
    const { catalog, assessmentResults, poam } = buildOscalSet(ctx, ev, fw) as unknown as {
      catalog: Json;
      assessmentResults: Json;
      poam: Json;
    };
    const controls = (catalog.catalog.groups as Json[]).flatMap((g) => g.controls as Json[]);
    const pw51 = controls.find((c) => c.id === "PW.5.1")!;
    expect(pw51.props).toEqual(
      expect.arrayContaining([
        { name: "policy", ns: VERDICT_NS, value: "aws-credentials", class: "enabled" },
        { name: "detection-rule", ns: VERDICT_NS, value: "aws-credentials/aws-access-key-id" },
      ]),
    );
    expect(catalog.catalog.metadata["oscal-version"]).toBe("1.1.2");

    const ar = assessmentResults["assessment-results"];
    expect(ar["import-ap"].href).toBe(`#${ar["back-matter"].resources[0].uuid}`);
    const result = ar.results[0];
    expect(result["reviewed-controls"]["control-selections"][0]["include-controls"]).toHaveLength(fw.controls.length);
    const findings = new Map((result.findings as Json[]).map((f) => [f.target["target-id"], f.target.status.state]));
    expect(findings.get("PW.5.1_smt")).toBe("satisfied");
    expect(findings.get("PW.7.2_smt")).toBe("not-satisfied");
    const risks = result.risks as Json[];
    expect(risks.filter((r) => r.status === "open")).toHaveLength(1);
    expect(risks.filter((r) => r.status === "deviation-requested").map((r) => r.title)).toEqual([
      "Bypass of aws-credentials in test/fixtures/keys.js",
    ]);
    expect((result.observations as Json[]).map((o) => o["relevant-evidence"][0].href)).toContain(
      "http://localhost:8080/v1/evaluations/eval_01",
    );

    const items = poam["plan-of-action-and-milestones"]["poam-items"] as Json[];
    const status = items.map((i) => [
      i.props.find((p: Json) => p.name === "control-id").value,
      i.props.find((p: Json) => p.name === "remediation-status").value,
    ]);
    expect(status).toEqual(
      expect.arrayContaining([
        ["PW.7.2", "open"],
        ["PW.5.1", "completed"],
      ]),
    );
  });

  it("give objects stable v5 uuids and each document a fresh uuid", () => {
    const fw = () => sampleEvidence(catalogs).frameworks[0]!;
    const a = buildOscalSet(ctx, sampleEvidence(catalogs), fw()).poam as Json;
    const b = buildOscalSet(ctx, sampleEvidence(catalogs), fw()).poam as Json;
    const pa = a["plan-of-action-and-milestones"];
    const pb = b["plan-of-action-and-milestones"];
    expect(pa.uuid).not.toBe(pb.uuid);
    expect(pa["poam-items"].map((i: Json) => i.uuid)).toEqual(pb["poam-items"].map((i: Json) => i.uuid));
    expect(pa["poam-items"][0].uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(stableUuid("x", "y")).toBe(stableUuid("x", "y"));
    expect(stableUuid("x", "y")).not.toBe(stableUuid("x", "z"));
  });

  it("prefix HIPAA's digit-leading control ids", () => {
    const ev = sampleEvidence([catalogById("hipaa")!]);
    const cat = buildOscalSet(ctx, ev, ev.frameworks[0]!).catalog as Json;
    const ids = (cat.catalog.groups as Json[]).flatMap((g) => (g.controls as Json[]).map((c) => c.id as string));
    expect(ids).toContain("ctl-164.312.a.1");
    for (const id of ids) expect(id).toMatch(/^\p{L}/u);
  });

  it("zip one catalog, assessment results and POA&M per framework", async () => {
    const zip = await JSZip.loadAsync(await renderOscalZip(ctx, sampleEvidence(catalogs), VIOLATIONS));
    for (const c of catalogs)
      for (const name of Object.values(oscalFileNames(c.id))) expect(zip.file(name)).not.toBeNull();
    const ar = JSON.parse(await zip.file(oscalFileNames("hipaa-test").assessmentResults)!.async("string"));
    expect(
      ar["assessment-results"].results[0]["reviewed-controls"]["control-selections"][0]["include-controls"][0][
        "control-id"
      ],
    ).toBe("ctl-164.312.a.1");
  });
});
