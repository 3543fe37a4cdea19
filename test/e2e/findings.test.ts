// Finding states, black-box (issue 30): a password silenced with verdict-ignore is still in the
// file, so the compliance PDF and the OSCAL export call it suppressed, never fixed; once a later
// evaluation no longer finds it at all, it is fixed. Real HTTP against the all-in-one process, the
// PDF read back by poppler's pdftotext.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import JSZip from "jszip";
import { Api } from "../support/api.js";
import { validateWithLiboscal } from "../support/oscal.js";
import { pdfText, section } from "../support/pdf.js";
import { startVerdict, type Verdict } from "../support/server.js";

const PASSWORD = "Vq8tLz2pW9xR4mKd";
const REPO = "acme/deploy";
const ENV = "deploy/.env";
const today = () => new Date().toISOString().slice(0, 10);

let v: Verdict;
let a: Api;

beforeAll(async () => {
  v = await startVerdict();
  a = new Api(v.url, v.bootstrapKey);
});
afterAll(async () => v.destroy());

async function evaluate(content: string) {
  const res = await a.post("/v1/evaluations", { repository: REPO, ref: "main", files: [{ path: ENV, content }] });
  expect(res.status).toBe(201);
  return res.body;
}

async function report(format: "pdf" | "oscal", frameworks: string[]): Promise<Buffer> {
  const res = await a.post("/v1/compliance/reports", {
    frameworks,
    format,
    date_range: { start: today(), end: today() },
  });
  expect(res.status).toBe(202);
  for (let i = 0; i < 240; i++) {
    const r = await a.get(`/v1/compliance/reports/${res.body.report_id}`);
    if (r.body.status === "completed") return Buffer.from(await (await fetch(r.body.download_url)).arrayBuffer());
    expect(r.body.status).toBe("generating");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`report ${res.body.report_id} still generating`);
}

interface Risk {
  status: string;
  statement: string;
  props: { name: string; value: string }[];
}
interface PoamItem {
  props: { name: string; value: string }[];
}

/** The soc2 assessment results' violation risks and POA&M items about deploy/.env. */
async function oscalAboutEnv(zipped: Buffer) {
  const zip = await JSZip.loadAsync(zipped);
  const ar = JSON.parse(await zip.file("soc2/soc2-assessment-results.json")!.async("string"));
  const poam = JSON.parse(await zip.file("soc2/soc2-poam.json")!.async("string"));
  const aboutEnv = (x: { props: { name: string; value: string }[] }) =>
    x.props.some((p) => p.name === "file" && p.value === ENV) ||
    x.props.some((p) => p.name === "repository" && p.value === REPO);
  const prop = (x: { props: { name: string; value: string }[] }, name: string) =>
    x.props.find((p) => p.name === name)?.value;
  const risks = (ar["assessment-results"].results[0].risks as Risk[]).filter(
    (r) => prop(r, "kind") === "violation" && aboutEnv(r),
  );
  const items = (poam["plan-of-action-and-milestones"]["poam-items"] as PoamItem[]).filter(aboutEnv);
  return { risks, items: items.map((i) => prop(i, "remediation-status")), prop, documents: { ar, poam } };
}

const PDF_SECTIONS = [
  "Controls",
  "Open violations by control",
  "Fixed in this period",
  "Suppressed in code, not fixed",
  "Bypass events",
];
const pdfSection = (text: string, heading: string) =>
  section(text, heading, [...PDF_SECTIONS.filter((h) => h !== heading), "Evaluated repositories"]);

describe("a password silenced with verdict-ignore", () => {
  let fingerprint: string;

  beforeAll(async () => {
    const first = await evaluate(`APP_ENV=production\nDB_PASSWORD=${PASSWORD}\n`);
    expect(first.passed).toBe(false);
    const found = first.violations.filter((x: { file: string }) => x.file === ENV);
    expect(found).toHaveLength(1);
    fingerprint = found[0].fingerprint;
    // The same password, silenced by a comment on the line before it (it moves down a line).
    const second = await evaluate(
      `APP_ENV=production\n# verdict-ignore ${found[0].policy_id}: rotated next sprint\nDB_PASSWORD=${PASSWORD}\n`,
    );
    expect(second.violations).toEqual([]);
    expect(second.summary.suppressed).toBe(1);
    expect(second.suppressions).toEqual([
      expect.objectContaining({ file: ENV, line: 3, reason: "rotated next sprint", fingerprint }),
    ]);
  });

  it("is listed as suppressed in the PDF, not under Fixed in this period", async () => {
    const text = pdfText(await report("pdf", ["soc2"]));
    expect(pdfSection(text, "Fixed in this period")).not.toContain(ENV);
    expect(pdfSection(text, "Fixed in this period")).toContain("No violation was fixed in this period.");
    const suppressed = pdfSection(text, "Suppressed in code, not fixed");
    expect(suppressed).toContain(`${ENV}:3`);
    expect(suppressed).toContain(REPO);
    expect(text.replace(/\s+/g, " ")).toContain(
      "0 were fixed by a later change, 1 were silenced in code rather than fixed",
    );
  });

  it("is an OSCAL risk awaiting a deviation decision, never a closed one, and a POA&M item not done", async () => {
    const { risks, items, prop, documents } = await oscalAboutEnv(await report("oscal", ["soc2"]));
    expect(risks.length).toBeGreaterThan(0);
    for (const r of risks) {
      expect(r.status).toBe("deviation-requested");
      expect(r.statement).toMatch(/^Suppressed, not fixed/);
      expect(prop(r, "finding-state")).toBe("suppressed");
      expect(prop(r, "fingerprint")).toBe(fingerprint);
    }
    expect(items.length).toBeGreaterThan(0);
    expect(new Set(items)).toEqual(new Set(["suppressed"]));
    // NIST's liboscal-java accepts the deviation (OSCAL 1.1.2 constraints, zero errors).
    const dir = mkdtempSync(join(tmpdir(), "findings-oscal-"));
    const files = Object.entries(documents).map(([name, doc]) => {
      writeFileSync(join(dir, `soc2-${name}.json`), JSON.stringify(doc));
      return join(dir, `soc2-${name}.json`);
    });
    const nist = await validateWithLiboscal(files);
    rmSync(dir, { recursive: true, force: true });
    expect(nist.output).not.toMatch(/^(ERROR|CRITICAL|INVALID|LOAD-FAILED) /m);
    expect(nist.ok).toBe(true);
  });

  it("is fixed once a later evaluation no longer finds it", async () => {
    // The password is gone: the application reads it from its secret store.
    expect((await evaluate("APP_ENV=production\n")).violations).toEqual([]);
    const { risks, items } = await oscalAboutEnv(await report("oscal", ["soc2"]));
    expect(risks.map((r) => r.status)).toEqual(risks.map(() => "closed"));
    expect(risks.length).toBeGreaterThan(0);
    expect(new Set(items)).toEqual(new Set(["completed"]));
  });
});
