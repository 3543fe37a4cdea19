// Finding states, black-box (issue 30): a password silenced with verdict-ignore is still in the
// file, so the compliance PDF and the OSCAL export call it suppressed, never fixed; once a later
// evaluation no longer finds it at all, it is fixed. Triage over the REST API: false positive and
// accepted risk (which reopens when it expires), per organization. Real HTTP against the
// all-in-one process, the PDF read back by poppler's pdftotext.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import JSZip from "jszip";
import { startReceiver } from "../../services/webhooks/test/receiver.js";
import { Api, expectError, expectFieldError } from "../support/api.js";
import { eventually } from "../support/eventually.js";
import { isolatedHome, runCli } from "../support/cli.js";
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
  // finding.updated goes to a receiver on 127.0.0.1 over http; expired accepted risks are looked
  // for every 300 ms (the default is a minute).
  v = await startVerdict({
    env: {
      VERDICT_WEBHOOK_ALLOW_HTTP: "true",
      VERDICT_WEBHOOK_ALLOW_PRIVATE: "true",
      VERDICT_TRIAGE_EXPIRY_INTERVAL_MS: "300",
    },
  });
  a = new Api(v.url, v.bootstrapKey);
});
afterAll(async () => v.destroy());

async function evaluate(content: string, repository = REPO) {
  const res = await a.post("/v1/evaluations", { repository, ref: "main", files: [{ path: ENV, content }] });
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

  it("stays suppressed, not fixed, when a later evaluation of the same ref checks other files only", async () => {
    const other = await a.post("/v1/evaluations", {
      repository: REPO,
      ref: "main",
      files: [{ path: "src/health.js", content: "export const ok = () => true;\n" }],
    });
    expect(other.status).toBe(201);
    const text = pdfText(await report("pdf", ["soc2"]));
    expect(pdfSection(text, "Fixed in this period")).not.toContain(ENV);
    expect(pdfSection(text, "Suppressed in code, not fixed")).toContain(`${ENV}:3`);
    const listed = await a.get(`/v1/findings?repository=${REPO}`);
    expect(listed.status).toBe(200);
    expect(listed.body.findings.filter((f: { file: string }) => f.file === ENV)).toEqual([
      expect.objectContaining({ state: "suppressed", fingerprint }),
    ]);
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

describe("GET /v1/findings and PATCH /v1/findings/{id}: triage", () => {
  const API = "acme/api";
  let id: string;
  const find = async (query: Record<string, string> = {}) =>
    (await a.get("/v1/findings", { query: { repository: API, ...query } })).body.findings as {
      id: string;
      state: string;
      triage_reason: string | null;
      triage_expires_at: string | null;
    }[];

  beforeAll(async () => {
    await evaluate(`DB_PASSWORD=${PASSWORD}\n`, API);
    const res = await a.get("/v1/findings", { query: { repository: API } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      has_more: false,
      findings: [
        {
          id: expect.stringMatching(/^fnd_[0-9a-f]{32}$/),
          repository: API,
          ref: "main",
          file: ENV,
          line: 1,
          state: "open",
          fingerprint: expect.stringMatching(/^[0-9a-f]{32}$/),
          triage_reason: null,
        },
      ],
    });
    id = res.body.findings[0].id;
  });

  it("lists the first part's finding as fixed, across evaluations", async () => {
    const res = await a.get("/v1/findings", { query: { repository: REPO, state: "fixed" } });
    expect(res.body.findings).toEqual([expect.objectContaining({ file: ENV, state: "fixed", line: 3 })]);
    expect((await a.get("/v1/findings", { query: { repository: REPO, state: "suppressed" } })).body.findings).toEqual(
      [],
    );
  });

  it("refuses a triage without its reason or expiry, naming the field", async () => {
    expectFieldError(await a.patch(`/v1/findings/${id}`, { state: "false_positive" }), 422, "reason", "REQUIRED");
    expectFieldError(
      await a.patch(`/v1/findings/${id}`, { state: "accepted_risk", reason: "vendor fix due" }),
      422,
      "expires_at",
      "REQUIRED",
    );
    expectFieldError(
      await a.patch(`/v1/findings/${id}`, {
        state: "accepted_risk",
        reason: "vendor fix due",
        expires_at: "2020-01-01T00:00:00Z",
      }),
      422,
      "expires_at",
      "INVALID_FORMAT",
    );
    expectFieldError(await a.patch(`/v1/findings/${id}`, { state: "ignored" }), 400, "state", "INVALID_ENUM");
    expectFieldError(await a.patch("/v1/findings/viol_1", { state: "open" }), 400, "finding_id", "INVALID_FORMAT");
    expectFieldError(await a.get("/v1/findings", { query: { state: "closed" } }), 400, "state", "INVALID_ENUM");
  });

  it("marks a false positive with its reason, and takes it back", async () => {
    const res = await a.patch(`/v1/findings/${id}`, {
      state: "false_positive",
      reason: "test fixture, never deployed",
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, state: "false_positive", triage_reason: "test fixture, never deployed" });
    expect((await find({ state: "false_positive" })).map((f) => f.id)).toEqual([id]);
    expect(await find({ state: "open" })).toEqual([]);
    const back = await a.patch(`/v1/findings/${id}`, { state: "open" });
    expect(back.body).toMatchObject({ state: "open", triage_reason: null });
    // Both decisions are in the audit trail: who, which finding, the state and reason before and after.
    await eventually(async () => {
      const audit = await a.get("/v1/audit-events", { query: { type: "finding.triaged", target_id: id } });
      expect(audit.status).toBe(200);
      const changes = (audit.body.audit_events as { occurred_at: string; data: { changes: unknown } }[])
        .sort((x, y) => x.occurred_at.localeCompare(y.occurred_at))
        .map((e) => e.data.changes);
      expect(changes).toEqual([
        {
          state: { before: "open", after: "false_positive" },
          reason: { before: null, after: "test fixture, never deployed" },
          expires_at: { before: null, after: null },
        },
        {
          state: { before: "false_positive", after: "open" },
          reason: { before: "test fixture, never deployed", after: null },
          expires_at: { before: null, after: null },
        },
      ]);
      expect(audit.body.audit_events[0]).toMatchObject({
        actor: { type: "api_key" },
        target: { type: "finding", id },
        data: { repository: API, file: ENV },
      });
    });
  });

  it("accepts a risk until it expires, then reopens it and announces that once (webhook, audit event)", async () => {
    const r = await startReceiver();
    try {
      const hook = await a.post("/v1/webhooks", { url: r.url, events: ["finding.updated"] });
      r.secret = hook.body.secret;
      const expires = new Date(Date.now() + 3000).toISOString();
      const res = await a.patch(`/v1/findings/${id}`, {
        state: "accepted_risk",
        reason: "rotation next sprint",
        expires_at: expires,
      });
      expect(res.body).toMatchObject({
        state: "accepted_risk",
        triage_reason: "rotation next sprint",
        triage_expires_at: expires,
      });
      expect((await find())[0]!.state).toBe("accepted_risk");
      await new Promise((res) => setTimeout(res, Date.parse(expires) - Date.now() + 250));
      expect((await find())[0]).toMatchObject({ state: "open", triage_reason: null });
      // The triage's own message, then the expiry's, once: the sweep runs every 300 ms, so it has
      // run several times more after these two seconds.
      for (let i = 0; i < 40 && r.received.length < 2; i++) await new Promise((res) => setTimeout(res, 250));
      await new Promise((res) => setTimeout(res, 2000));
      expect(r.received.map((x) => [x.json.event, x.verified, x.json.data.cause])).toEqual([
        ["finding.updated", true, "triage"],
        ["finding.updated", true, "accepted_risk_expired"],
      ]);
      expect(r.received[1]!.json.data).toMatchObject({
        previous_state: "accepted_risk",
        finding: { id, repository: API, file: ENV, state: "open", triage_reason: null, triage_expires_at: null },
      });
      const audit = await a.get("/v1/audit-events", { query: { type: "finding.accepted_risk_expired" } });
      expect(audit.status).toBe(200);
      expect(audit.body.audit_events).toEqual([
        expect.objectContaining({
          type: "finding.accepted_risk_expired",
          actor: expect.objectContaining({ type: "system" }),
          target: { type: "finding", id },
          data: expect.objectContaining({
            repository: API,
            reason: "rotation next sprint",
            expires_at: expires,
            changes: { state: { before: "accepted_risk", after: "open" } },
          }),
        }),
      ]);
      expect((await a.delete(`/v1/webhooks/${hook.body.id}`)).status).toBe(204);
    } finally {
      await r.close();
    }
  });

  it("reports an accepted risk as an approved deviation in OSCAL, with the POA&M item not done", async () => {
    const expires = new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString();
    await a.patch(`/v1/findings/${id}`, {
      state: "accepted_risk",
      reason: "compensating control: vault rotation",
      expires_at: expires,
    });
    const zip = await JSZip.loadAsync(await report("oscal", ["soc2"]));
    const ar = JSON.parse(await zip.file("soc2/soc2-assessment-results.json")!.async("string"));
    const poam = JSON.parse(await zip.file("soc2/soc2-poam.json")!.async("string"));
    const about = (x: { props: { name: string; value: string }[] }) =>
      x.props.some((p) => p.name === "repository" && p.value === API);
    const risks = (ar["assessment-results"].results[0].risks as Risk[]).filter(
      (r) => about(r) && r.props.some((p) => p.value === "violation"),
    );
    expect(risks.length).toBeGreaterThan(0);
    for (const r of risks) {
      expect(r.status).toBe("deviation-approved");
      expect(r.statement).toContain("compensating control: vault rotation");
    }
    const items = (poam["plan-of-action-and-milestones"]["poam-items"] as PoamItem[]).filter(about);
    expect(items.map((i) => i.props.find((p) => p.name === "remediation-status")?.value)).toEqual(
      items.map(() => "accepted-risk"),
    );
  });

  it("announces each triage to webhooks as finding.updated, signed, with no matched value", async () => {
    const r = await startReceiver();
    try {
      const hook = await a.post("/v1/webhooks", { url: r.url, events: ["finding.updated"] });
      expect(hook.status).toBe(201);
      r.secret = hook.body.secret;
      await a.patch(`/v1/findings/${id}`, { state: "false_positive", reason: "sample data" });
      await a.patch(`/v1/findings/${id}`, { state: "open" });
      for (let i = 0; i < 120 && r.received.length < 2; i++) await new Promise((res) => setTimeout(res, 250));
      expect(r.received.map((x) => [x.json.event, x.verified])).toEqual([
        ["finding.updated", true],
        ["finding.updated", true],
      ]);
      const [marked, reopened] = r.received.map((x) => x.json.data);
      expect(marked).toMatchObject({
        previous_state: "accepted_risk",
        cause: "triage",
        finding: { id, repository: API, file: ENV, state: "false_positive", triage_reason: "sample data" },
      });
      expect(reopened).toMatchObject({
        previous_state: "false_positive",
        finding: { id, state: "open", triage_reason: null },
      });
      expect(r.received.map((x) => x.body).join("")).not.toContain(PASSWORD);
      expect((await a.delete(`/v1/webhooks/${hook.body.id}`)).status).toBe(204);
    } finally {
      await r.close();
    }
  });

  it("lists and triages from the command line (verdict findings list|triage)", async () => {
    const env = { ...isolatedHome(), VERDICT_URL: v.url, VERDICT_API_KEY: v.bootstrapKey };
    const listed = await runCli(["findings", "list", "--repository", API, "--json"], { env });
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout).findings).toEqual([expect.objectContaining({ id, state: "open" })]);
    const table = await runCli(["findings", "list", "--repository", API], { env });
    expect(table.stdout).toContain(`${ENV}:1`);
    const marked = await runCli(["findings", "triage", id, "--state", "false_positive", "--reason", "sample data"], {
      env,
    });
    expect({ code: marked.code, stdout: marked.stdout.trim() }).toEqual({
      code: 0,
      stdout: `${id} is false_positive: sample data`,
    });
    const refused = await runCli(["findings", "triage", id, "--state", "accepted_risk", "--reason", "later"], { env });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("expires_at");
    expect((await runCli(["findings", "triage", id, "--state", "open"], { env })).stdout.trim()).toBe(`${id} is open`);
  });

  it("is scoped to the organization and needs write:evaluations", async () => {
    const other = await a.post("/v1/organizations", { name: "Globex", plan: "team" });
    const b = a.withKey(other.body.api_key.key);
    expectError(await b.patch(`/v1/findings/${id}`, { state: "open" }), 404, "not_found", "RESOURCE_NOT_FOUND");
    expect((await b.get("/v1/findings")).body.findings).toEqual([]);
    const reader = (await a.post("/v1/api-keys", { name: "reader", scopes: ["read:evaluations"] })).body.key;
    expect((await a.get("/v1/findings", { key: reader })).status).toBe(200);
    expectError(
      await a.patch(`/v1/findings/${id}`, { state: "open" }, { key: reader }),
      403,
      "forbidden",
      "AUTH_INSUFFICIENT_SCOPE",
    );
  });
});
