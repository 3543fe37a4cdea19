// Compliance, black-box: live coverage that follows policy toggles; evidence reports in PDF and
// OSCAL generated through the bus and downloaded through signed, expiring links; validation
// errors with exact fields; tenancy.
import { createHmac } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import JSZip from "jszip";
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import * as grpc from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
import { Api, expectError, expectFieldError } from "../support/api.js";
import { grpcHealth, grpcListServices } from "../support/grpc.js";
import { OSCAL_SCHEMAS, validateWithLiboscal } from "../support/oscal.js";
import { pdfText } from "../support/pdf.js";
import { ROOT, startVerdict, type Verdict } from "../support/server.js";

const SIGNING_KEY = "e2e-report-signing-key-0123456789abcdef";
const AWS_KEY = "AKIAZ7VQ3X4M2N8P5R6T";
const today = () => new Date().toISOString().slice(0, 10);

let v: Verdict;
let a: Api;
let b: Api;

beforeAll(async () => {
  v = await startVerdict({ env: { VERDICT_REPORT_SIGNING_KEY: SIGNING_KEY } });
  a = new Api(v.url, v.bootstrapKey);
  const orgB = await a.post("/v1/organizations", { name: "Globex", plan: "team" });
  b = a.withKey(orgB.body.api_key.key);
});
afterAll(async () => v.destroy());

async function waitForReport(api: Api, id: string) {
  for (let i = 0; i < 240; i++) {
    const res = await api.get(`/v1/compliance/reports/${id}`);
    expect(res.status).toBe(200);
    if (res.body.status !== "generating") return res.body;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`report ${id} still generating`);
}

async function download(url: string) {
  const res = await fetch(url);
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

describe("coverage", () => {
  it("shows every framework with integer coverage and control counts", async () => {
    const res = await a.get("/v1/compliance/overview");
    expect(res.status).toBe(200);
    const ids = res.body.frameworks.map((f: { id: string }) => f.id);
    expect(ids).toEqual(expect.arrayContaining(["nist-ssdf", "soc2", "owasp-asvs"]));
    for (const f of res.body.frameworks) {
      expect(Number.isInteger(f.coverage)).toBe(true);
      expect(f.controls.covered).toBeLessThanOrEqual(f.controls.total);
      expect(f.coverage).toBe(Math.floor((f.controls.covered * 100) / f.controls.total));
    }
    expect(Array.isArray(res.body.regulations)).toBe(true);
  });

  it("changes live when a policy is disabled and enabled again", async () => {
    const before = await a.get("/v1/compliance/frameworks/soc2");
    expect(before.body.framework).toMatchObject({ id: "soc2", name: expect.any(String), version: expect.any(String) });
    const cc81 = before.body.controls.find((c: { id: string }) => c.id === "CC8.1");
    expect(cc81.covered).toBe(true);
    // Turn off every policy mapped to CC8.1: the control is no longer covered.
    for (const p of cc81.policies) expect((await a.patch(`/v1/policies/${p}`, { enabled: false })).status).toBe(200);
    const after = await a.get("/v1/compliance/frameworks/soc2");
    expect(after.body.controls.find((c: { id: string }) => c.id === "CC8.1")).toMatchObject({
      covered: false,
      policies: [],
    });
    expect(after.body.coverage).toBeLessThan(before.body.coverage);
    const overview = await a.get("/v1/compliance/overview");
    expect(overview.body.frameworks.find((f: { id: string }) => f.id === "soc2").controls.covered).toBe(
      after.body.controls.filter((c: { covered: boolean }) => c.covered).length,
    );
    // Organization B is untouched.
    expect((await b.get("/v1/compliance/frameworks/soc2")).body.coverage).toBe(before.body.coverage);
    for (const p of cc81.policies) await a.patch(`/v1/policies/${p}`, { enabled: true });
    expect((await a.get("/v1/compliance/frameworks/soc2")).body.coverage).toBe(before.body.coverage);
  });

  it("answers 404 for an unknown framework", async () => {
    expectError(await a.get("/v1/compliance/frameworks/iso-99999"), 404, "not_found", "RESOURCE_NOT_FOUND");
  });
});

describe("control status with evidence semantics", () => {
  // A fresh organization: its evidence is only what this test evaluates.
  let c: Api;
  beforeAll(async () => {
    const org = await a.post("/v1/organizations", { name: "Initech", plan: "team" });
    c = a.withKey(org.body.api_key.key);
  });

  type Control = { id: string; covered: boolean; evidence: string };
  const soc2 = async () => {
    const res = await c.get("/v1/compliance/frameworks/soc2");
    expect(res.status).toBe(200);
    return new Map((res.body.controls as Control[]).map((x) => [x.id, x]));
  };
  /** Polls until the projection has the latest evaluation (events reach compliance on the bus). */
  async function until(check: (controls: Map<string, Control>) => boolean) {
    for (let i = 0; i < 80; i++) {
      const controls = await soc2();
      if (check(controls)) return controls;
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error("the evidence projection did not catch up");
  }

  it("shows CC6.6 as no evidence after evaluating only a README, and passed after a JavaScript file with CORS configuration", async () => {
    const res = await c.get("/v1/compliance/frameworks/soc2", { query: { days: 30 } });
    expect(res.body.evidence_range).toEqual({
      start: new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10),
      end: today(),
    });
    expect(res.body.controls.find((x: Control) => x.id === "CC6.6")).toMatchObject({
      covered: true,
      evidence: "no-evidence",
    });
    const readme = await c.post("/v1/evaluations", {
      repository: "initech/site",
      ref: "main",
      files: [
        { path: "README.md", content: "# Site\n\nThe API answers Access-Control-Allow-Origin for our app only.\n" },
      ],
    });
    expect(readme.body).toMatchObject({ status: "completed", passed: true });
    // The secret policies read any text file: CC6.1 has evidence. permissive-cors ran too, but a
    // README is no file it is written for: CC6.6 has none.
    const afterReadme = await until((x) => x.get("CC6.1")!.evidence === "passed");
    expect(afterReadme.get("CC6.6")).toMatchObject({ covered: true, evidence: "no-evidence" });

    // The PDF's control table says so too (pdftotext: what a reader sees).
    const pdfReport = await c.post("/v1/compliance/reports", { frameworks: ["soc2"], format: "pdf", date_range: "1d" });
    const pdf = (await download((await waitForReport(c, pdfReport.body.report_id)).download_url)).body;
    const row = pdfText(pdf)
      .split("\n")
      .find((l) => /^\s*CC6\.6\s/.test(l));
    expect(row).toMatch(/\bYes\b.*No evidence/);

    // The OSCAL assessment results say so: not satisfied, for want of evidence.
    const report = await c.post("/v1/compliance/reports", { frameworks: ["soc2"], format: "oscal", date_range: "1d" });
    expect(report.status).toBe(202);
    const done = await waitForReport(c, report.body.report_id);
    const zip = await JSZip.loadAsync((await download(done.download_url)).body);
    const ar = JSON.parse(await zip.file("soc2/soc2-assessment-results.json")!.async("string"));
    const findings = ar["assessment-results"].results[0].findings as {
      title: string;
      props: { name: string; value: string }[];
      target: { status: { state: string; reason: string } };
    }[];
    const cc66 = findings.find((f) => f.title.startsWith("CC6.6:"))!;
    expect(cc66.target.status).toEqual({ state: "not-satisfied", reason: "other" });
    expect(cc66.props).toContainEqual(expect.objectContaining({ name: "control-status", value: "no-evidence" }));
    const ajv = new Ajv({ allErrors: true, strict: false });
    (addFormatsModule as unknown as (x: Ajv) => void)(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(`${OSCAL_SCHEMAS}/oscal-ar_schema.json`, "utf8")));
    expect(validate(ar) ? null : validate.errors).toBeNull();

    const js = await c.post("/v1/evaluations", {
      repository: "initech/site",
      ref: "main",
      files: [
        {
          path: "src/server.js",
          content: 'app.use(cors({ origin: "https://app.initech.example", credentials: true }));\n',
        },
      ],
    });
    expect(js.body).toMatchObject({ status: "completed", passed: true, violations: [] });
    const afterJs = await until((x) => x.get("CC6.6")!.evidence !== "no-evidence");
    expect(afterJs.get("CC6.6")!.evidence).toBe("passed");
  });

  it("validates the evidence window", async () => {
    const frameworkIn = (days: number | string) => c.get("/v1/compliance/frameworks/soc2", { query: { days } });
    expectFieldError(await frameworkIn(0), 400, "days", "MIN_SIZE_REQUIRED");
    expectFieldError(await frameworkIn(367), 400, "days", "MAX_SIZE_EXCEEDED");
    expectFieldError(await frameworkIn("ninety"), 400, "days", "INVALID_FORMAT");
  });
});

describe("reports", () => {
  const reports: Record<string, { report_id: string; download_url: string }> = {};

  beforeAll(async () => {
    // A leaked key (violation, later fixed), an injection that stays open, and a bypass.
    const e1 = await a.post("/v1/evaluations", {
      repository: "acme/payments",
      ref: "main",
      files: [
        { path: "src/config.js", content: `const key = "${AWS_KEY}";\n` },
        { path: "src/legacy.js", content: `module.exports = { awsKey: "${AWS_KEY}" };\n` },
      ],
    });
    expect(e1.body.passed).toBe(false);
    expect(e1.body.violations.map((x: { file: string }) => x.file)).toEqual(
      expect.arrayContaining(["src/config.js", "src/legacy.js"]),
    );
    const e2 = await a.post("/v1/evaluations", {
      repository: "acme/payments",
      ref: "main",
      files: [
        { path: "src/config.js", content: "const key = process.env.AWS_ACCESS_KEY_ID;\n" },
        { path: "src/legacy.js", content: `module.exports = { awsKey: "${AWS_KEY}" };\n` },
        {
          path: "test/fixture.js",
          content: `const fixture = "${AWS_KEY}"; // verdict-ignore aws-credentials: documented test fixture\n`,
        },
      ],
    });
    expect(e2.body.summary.suppressed).toBe(1);
  });

  it("generates a PDF: 202 generating, then completed with a signed link that downloads it", async () => {
    const res = await a.post("/v1/compliance/reports", {
      frameworks: ["nist-ssdf", "soc2"],
      format: "pdf",
      date_range: { start: today(), end: today() },
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      report_id: expect.stringMatching(/^report_/),
      status: "generating",
      download_url: null,
    });
    expect(res.headers.get("location")).toBe(`/v1/compliance/reports/${res.body.report_id}`);
    const done = await waitForReport(a, res.body.report_id);
    expect(done).toMatchObject({
      status: "completed",
      format: "pdf",
      frameworks: ["nist-ssdf", "soc2"],
      failure_reason: null,
    });
    expect(done.download_url).toContain(`/v1/compliance/reports/${res.body.report_id}/download?expires=`);
    const file = await download(done.download_url);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/pdf");
    expect(file.headers.get("content-disposition")).toMatch(/^attachment; filename="?verdict-evidence-.+\.pdf"?$/);
    expect(file.body.subarray(0, 5).toString()).toBe("%PDF-");
    expect(file.body.length).toBe(done.size_bytes);
    reports.pdf = done;
  });

  it("generates OSCAL 1.1.2: a ZIP with catalog, assessment results and POA&M per framework, with the violation and the bypass", async () => {
    const res = await a.post("/v1/compliance/reports", {
      frameworks: ["owasp-asvs", "nist-ssdf"],
      format: "oscal",
      date_range: "7d",
    });
    expect(res.status).toBe(202);
    const done = await waitForReport(a, res.body.report_id);
    expect(done.status).toBe("completed");
    const file = await download(done.download_url);
    expect(file.headers.get("content-type")).toBe("application/zip");
    const zip = await JSZip.loadAsync(file.body);
    const schemas = OSCAL_SCHEMAS;
    const dir = mkdtempSync(join(tmpdir(), "oscal-e2e-"));
    const files: string[] = [];
    const ajv = new Ajv({ allErrors: true, strict: false });
    (addFormatsModule as unknown as (x: Ajv) => void)(ajv);
    const validate = {
      catalog: ajv.compile(JSON.parse(readFileSync(`${schemas}/oscal-catalog_schema.json`, "utf8"))),
      "assessment-results": ajv.compile(JSON.parse(readFileSync(`${schemas}/oscal-ar_schema.json`, "utf8"))),
      poam: ajv.compile(JSON.parse(readFileSync(`${schemas}/oscal-poam_schema.json`, "utf8"))),
    };
    for (const fw of ["owasp-asvs", "nist-ssdf"]) {
      for (const kind of ["catalog", "assessment-results", "poam"] as const) {
        const entry = zip.file(`${fw}/${fw}-${kind}.json`);
        expect(entry).not.toBeNull();
        const text = await entry!.async("string");
        files.push(join(dir, `${fw}-${kind}.json`));
        writeFileSync(files.at(-1)!, text);
        const doc = JSON.parse(text);
        const ok = validate[kind](doc);
        expect({ fw, kind, errors: ok ? null : validate[kind].errors }).toEqual({ fw, kind, errors: null });
      }
      const ar = await zip.file(`${fw}/${fw}-assessment-results.json`)!.async("string");
      const poam = await zip.file(`${fw}/${fw}-poam.json`)!.async("string");
      // The key in src/legacy.js is still there (open); the one in src/config.js was removed
      // (fixed); the fixture was bypassed with verdict-ignore.
      const items = (
        JSON.parse(poam)["plan-of-action-and-milestones"]["poam-items"] as {
          description: string;
          props: { name: string; value: string }[];
        }[]
      ).map((i) => ({
        file: i.description,
        status: i.props.find((p) => p.name === "remediation-status")?.value,
        policy: i.props.find((p) => p.name === "policy")?.value,
      }));
      expect(items).toEqual(
        expect.arrayContaining([
          { file: expect.stringContaining("src/legacy.js"), status: "open", policy: "aws-credentials" },
          { file: expect.stringContaining("src/config.js"), status: "completed", policy: "aws-credentials" },
        ]),
      );
      const result = JSON.parse(ar)["assessment-results"].results[0];
      const risks = result.risks as { status: string; description: string }[];
      // One bypass risk per control the bypassed policy maps to.
      const bypasses = risks.filter((r) => r.status === "deviation-requested").map((r) => r.description);
      expect(bypasses.length).toBeGreaterThan(0);
      for (const d of bypasses) expect(d).toMatch(/verdict-ignore.*test\/fixture\.js.*documented test fixture/);
      expect(risks.some((r) => r.status === "open" && r.description.includes("src/legacy.js"))).toBe(true);
      expect(
        (result.findings as { target: { status: { state: string } } }[]).some(
          (f) => f.target.status.state === "not-satisfied",
        ),
      ).toBe(true);
    }
    // NIST's liboscal-java: OSCAL 1.1.2 constraints, zero errors.
    const nist = await validateWithLiboscal(files);
    rmSync(dir, { recursive: true, force: true });
    expect(nist.output).not.toMatch(/^(ERROR|CRITICAL|INVALID|LOAD-FAILED) /m);
    expect(nist.ok).toBe(true);
    reports.oscal = done;
  });

  it("refuses a tampered link (403) and an expired one (410)", async () => {
    const url = new URL(reports.pdf!.download_url);
    const expires = Number(url.searchParams.get("expires"));
    const id = reports.pdf!.report_id;
    const tampered = new URL(url);
    tampered.searchParams.set("expires", String(expires + 3600));
    expectError(
      await a.get(`${tampered.pathname}${tampered.search}`, { key: null }),
      403,
      "forbidden",
      "DOWNLOAD_LINK_INVALID",
    );
    const otherReport = new URL(url);
    otherReport.pathname = url.pathname.replace(id, reports.oscal!.report_id);
    expectError(
      await a.get(`${otherReport.pathname}${otherReport.search}`, { key: null }),
      403,
      "forbidden",
      "DOWNLOAD_LINK_INVALID",
    );
    // A correctly signed link whose time is up.
    const past = Math.floor(Date.now() / 1000) - 60;
    const sig = createHmac("sha256", SIGNING_KEY).update(`${id}.${past}`).digest("base64url");
    const expired = await a.get(`/v1/compliance/reports/${id}/download`, {
      key: null,
      query: { expires: past, signature: sig },
    });
    expect(expired.status).toBe(410);
    expect(expired.body.code).toBe("DOWNLOAD_LINK_EXPIRED");
    expectFieldError(await a.get(`/v1/compliance/reports/${id}/download`, { key: null }), 400, "expires", "REQUIRED");
  });

  it("is invisible to another organization", async () => {
    expectError(
      await b.get(`/v1/compliance/reports/${reports.pdf!.report_id}`),
      404,
      "not_found",
      "RESOURCE_NOT_FOUND",
    );
  });

  it("validates frameworks, format and date_range with exact fields", async () => {
    // Organization B: the 10 reports an hour of organization A stay for the other tests.
    const ok = { frameworks: ["soc2"], format: "pdf", date_range: { start: "2026-01-01", end: today() } };
    expectFieldError(
      await b.post("/v1/compliance/reports", { ...ok, frameworks: ["soc2", "iso-99999"] }),
      422,
      "frameworks[1]",
      "INVALID_ENUM",
    );
    expectFieldError(
      await b.post("/v1/compliance/reports", { ...ok, frameworks: [] }),
      400,
      "frameworks",
      "MIN_SIZE_REQUIRED",
    );
    expectFieldError(await b.post("/v1/compliance/reports", { ...ok, format: "docx" }), 400, "format", "INVALID_ENUM");
    expectFieldError(
      await b.post("/v1/compliance/reports", { ...ok, date_range: { start: "2026-03-10", end: "2026-03-01" } }),
      422,
      "date_range.end",
      "INVALID_FORMAT",
    );
    expectFieldError(
      await b.post("/v1/compliance/reports", { ...ok, date_range: { start: "2026-01-01", end: "2999-01-01" } }),
      422,
      "date_range.end",
      "INVALID_FORMAT",
    );
    expectFieldError(
      await b.post("/v1/compliance/reports", { ...ok, date_range: { start: "2026-02-30", end: "2026-03-01" } }),
      422,
      "date_range.start",
      "INVALID_FORMAT",
    );
    expectFieldError(
      await b.post("/v1/compliance/reports", { ...ok, date_range: { start: "yesterday", end: "2026-03-01" } }),
      400,
      "date_range.start",
      "INVALID_FORMAT",
    );
    expectFieldError(
      await b.post("/v1/compliance/reports", { frameworks: ["soc2"], format: "pdf" }),
      400,
      "date_range",
      "REQUIRED",
    );
  });

  it("allows 10 report requests an hour per organization", async () => {
    const org = await a.post("/v1/organizations", { name: "Initech", plan: "team" });
    const c = a.withKey(org.body.api_key.key);
    // Rejected requests count too, so this generates nothing.
    const bad = { frameworks: ["iso-99999"], format: "pdf", date_range: "7d" };
    for (let i = 0; i < 10; i++) expect((await c.post("/v1/compliance/reports", bad)).status).toBe(422);
    const limited = await c.post("/v1/compliance/reports", bad);
    expectError(limited, 429, "rate_limited", "RATE_LIMIT_EXCEEDED");
    expect(limited.body.details).toMatchObject({ limit: 10, window: "1h" });
    // Reads are not affected.
    expect((await c.get("/v1/compliance/overview")).status).toBe(200);
  });

  it("needs read:policies", async () => {
    const key = (await a.post("/v1/api-keys", { name: "org reader", scopes: ["read:org"] })).body.key;
    const res = await a.post(
      "/v1/compliance/reports",
      { frameworks: ["soc2"], format: "pdf", date_range: "30d" },
      { key },
    );
    expectError(res, 403, "forbidden", "AUTH_INSUFFICIENT_SCOPE");
    expectError(await a.get("/v1/compliance/overview", { key }), 403, "forbidden", "AUTH_INSUFFICIENT_SCOPE");
  });
});

describe("gRPC", () => {
  it("serves health, reflection and GenerateEvidence (the MCP tool's operation) on the compliance port", async () => {
    const port = v.grpcPorts.compliance;
    const service = "verdict.compliance.v1.ComplianceService";
    expect(await grpcHealth(port, service)).toBe("SERVING");
    expect(await grpcListServices(port)).toContain(service);
    const def = grpc.loadPackageDefinition(
      loadSync("verdict/compliance/v1/compliance.proto", {
        includeDirs: [`${ROOT}/proto`],
        keepCase: true,
        longs: Number,
        defaults: true,
      }),
    ) as any;
    const client = new def.verdict.compliance.v1.ComplianceService(
      `127.0.0.1:${port}`,
      grpc.credentials.createInsecure(),
    );
    const orgId = (await a.get("/v1/organization")).body.id;
    const call = (req: object) =>
      new Promise<any>((resolve, reject) =>
        client.GenerateEvidence(req, { deadline: Date.now() + 10_000 }, (err: Error | null, res: unknown) =>
          err ? reject(err) : resolve(res),
        ),
      );
    const res = await call({ organization_id: orgId, framework: "nist-ssdf", format: "oscal", date_range: "90d" });
    expect(res.report).toMatchObject({
      report_id: expect.stringMatching(/^report_/),
      status: "generating",
      frameworks: ["nist-ssdf"],
      format: "oscal",
    });
    expect(res.report.date_range.end).toBe(today());
    expect((await waitForReport(a, res.report.report_id)).status).toBe("completed");
    await expect(
      call({ organization_id: orgId, framework: "nist-ssdf", format: "oscal", date_range: "ninety days" }),
    ).rejects.toMatchObject({ code: grpc.status.FAILED_PRECONDITION });
    client.close();
  });
});
