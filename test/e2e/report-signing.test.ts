// Signed evidence, black-box: a report file's SHA-256 and detached Ed25519 signature, the public
// key at its well-known path (PEM and JWK), and docs/compliance.md's verification commands run as
// written: `verdict reports verify` and `openssl pkeyutl -verify -rawin` accept the file as
// downloaded and refuse it after one changed byte or with another key.
import { execFileSync } from "node:child_process";
import { createHash, createPublicKey, generateKeyPairSync } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "@jest/globals";
import JSZip from "jszip";
import { Api, expectFieldError } from "../support/api.js";
import { CLI, isolatedHome, runCli, runCommand } from "../support/cli.js";
import { bash, shellBlocks } from "../support/shell.js";
import { startVerdict, TARGET, type Verdict } from "../support/server.js";

let v: Verdict;
let work: string;
let env: Record<string, string>;

beforeAll(async () => {
  v = await startVerdict();
  work = mkdtempSync(join(tmpdir(), "verdict-report-signing-"));
  // `verdict` on PATH, as the docs' commands call it.
  const bin = join(work, "bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "verdict"), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  chmodSync(join(bin, "verdict"), 0o755);
  env = {
    ...isolatedHome(),
    PATH: `${bin}:${process.env.PATH ?? ""}`,
    VERDICT_URL: v.url,
    VERDICT_API_KEY: v.bootstrapKey,
  };
});
afterAll(async () => {
  await v.destroy();
  rmSync(work, { recursive: true, force: true });
});

const cli = (args: string[]) => runCli(args, { cwd: work, env });

// As docs/compliance.md sets them.
const SYSTEM = "Acme Pay: the card payments API and its deployment code";
const SCOPE = "All repositories of the payments team; production branches only";

it("signs a report file, serves the public key, and verifies with the documented commands", async () => {
  const api = new Api(v.url, v.bootstrapKey);
  // Evidence for the period: a leaked key in acme/payments.
  const evaluation = await api.post("/v1/evaluations", {
    repository: "acme/payments",
    ref: "main",
    files: [{ path: "src/config.js", content: 'const key = "AKIAZ7VQ3X4M2N8P5R6T";\n' }],
  });
  expect(evaluation.body).toMatchObject({ status: "completed", passed: false });
  // The scope page's text comes from the organization's settings.
  const tooLong = await api.patch("/v1/organization", { settings: { system_description: "x".repeat(4001) } });
  expectFieldError(tooLong, 400, "settings.system_description", "MAX_SIZE_EXCEEDED", { max: 4000 });
  const [describeSystem, commands] = shellBlocks("docs/compliance.md", "## Verifying a report's signature");
  const docEnv = { ...env, V: `${v.url}/v1`, H: `Authorization: Bearer ${v.bootstrapKey}` };
  expect(JSON.parse(bash(describeSystem!, work, docEnv)).settings).toMatchObject({
    system_description: SYSTEM,
    report_scope: SCOPE,
  });
  const out = bash(commands!, work, docEnv);
  expect(out).toMatch(
    /^verified: evidence\.pdf \(\d+ bytes, sha256 [0-9a-f]{64}\) is signed by the Ed25519 report key [0-9a-f]{64} from http:\/\/.+\/\.well-known\/verdict-report-key\.pem$/m,
  );
  expect(out).toMatch(/^verified: evidence\.pdf .* from verdict-report-key\.pem$/m);
  expect(out).toContain("Signature Verified Successfully");
  if (TARGET === "all-in-one") expect(existsSync(join(v.dataDir, "report-private-key.pem"))).toBe(true);

  // The report states what was signed; the well-known key (PEM and JWK) is the one that signed it.
  const pdf = readFileSync(join(work, "evidence.pdf"));
  const sig = readFileSync(join(work, "evidence.pdf.sig"));
  const asJson = await cli(["reports", "verify", "evidence.pdf", "--json"]);
  expect(asJson.code).toBe(0);
  const verified = JSON.parse(asJson.stdout);
  expect(verified).toMatchObject({ valid: true, size_bytes: pdf.length });
  expect(verified.sha256).toBe(createHash("sha256").update(pdf).digest("hex"));
  const jwk = await fetch(`${v.url}/.well-known/verdict-report-key.jwk`);
  expect(jwk.status).toBe(200);
  const key = await jwk.json();
  expect(key).toMatchObject({ kty: "OKP", crv: "Ed25519", alg: "EdDSA", use: "sig", kid: verified.key_id });
  const pem = readFileSync(join(work, "verdict-report-key.pem"), "utf8");
  expect(createPublicKey(pem).export({ format: "jwk" }).x).toBe(key.x);

  // The page after the cover: the organization's description and scope, and the signing key. Rendered
  // by poppler (pdftoppm) as a reader shows it, and its text read with pdftotext.
  const page2 = execFileSync("pdftotext", ["-f", "2", "-l", "2", "evidence.pdf", "-"], { cwd: work }).toString();
  const text = page2.replace(/\s+/g, " ");
  expect(text).toContain("Scope and system description");
  expect(text).toContain(SYSTEM);
  expect(text).toContain(SCOPE);
  expect(text).toContain("Repositories evaluated 1: acme/payments");
  expect(text).toContain(`Ed25519 report key ${key.kid}`);
  // (The service names the API by its configured public URL, else localhost.)
  expect(text).toContain(`:${v.port}/.well-known/verdict-report-key.pem`);
  expect(page2).toContain(
    "openssl pkeyutl -verify -pubin -inkey verdict-report-key.pem -rawin -in FILE -sigfile FILE.sig",
  );
  execFileSync("pdftoppm", ["-f", "2", "-l", "2", "-r", "40", "-png", "-singlefile", "evidence.pdf", "page2"], {
    cwd: work,
  });
  const png = readFileSync(join(work, "page2.png"));
  expect(png.subarray(1, 4).toString()).toBe("PNG");
  // A4 at 40 dpi: 331 x 468 pixels (IHDR width and height).
  expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([331, 468]);
  const created = await api.post("/v1/compliance/reports", { frameworks: ["soc2"], format: "oscal", date_range: "7d" });
  expect(created.status).toBe(202);
  expect(created.body).toMatchObject({ sha256: null, signature: null, signature_key_id: null });
  expect(created.body.public_key_url).toBe(`${v.url}/.well-known/verdict-report-key.pem`);
  let report = created.body;
  for (let i = 0; i < 240 && report.status === "generating"; i++) {
    await new Promise((r) => setTimeout(r, 250));
    report = (await api.get(`/v1/compliance/reports/${report.report_id}`)).body;
  }
  expect(report).toMatchObject({ status: "completed", signature_algorithm: "Ed25519", signature_key_id: key.kid });
  const zip = Buffer.from(await (await fetch(report.download_url)).arrayBuffer());
  expect(report.sha256).toBe(createHash("sha256").update(zip).digest("hex"));
  writeFileSync(join(work, "evidence.zip"), zip);
  // The OSCAL documents cite the evaluation through a back-matter resource with the SHA-256 of its
  // evidence file in the ZIP, which sha256sum confirms (docs/compliance.md).
  const files = await JSZip.loadAsync(zip);
  const ar = JSON.parse(await files.file("soc2/soc2-assessment-results.json")!.async("string"));
  const cited = ar["assessment-results"]["back-matter"].resources.find(
    (r: { title: string }) => r.title === `Evaluation ${evaluation.body.id}: the recorded result`,
  );
  expect(cited.rlinks[0].href).toBe(`../evidence/${evaluation.body.id}.json`);
  mkdirSync(join(work, "evidence"));
  writeFileSync(
    join(work, "evidence", `${evaluation.body.id}.json`),
    await files.file(`evidence/${evaluation.body.id}.json`)!.async("nodebuffer"),
  );
  const sum = execFileSync("sha256sum", [`evidence/${evaluation.body.id}.json`], { cwd: work }).toString();
  expect(sum.split(" ")[0]).toBe(cited.rlinks[0].hashes[0].value);
  writeFileSync(join(work, "evidence.zip.b64"), `${report.signature}\n`);
  const zipOk = await cli(["reports", "verify", "evidence.zip", "--signature", "evidence.zip.b64", "--server", v.url]);
  expect(zipOk.code).toBe(0);
  expect(sig.length).toBe(64);

  // One changed byte: both refuse it.
  const changed = Buffer.from(pdf);
  changed[Math.floor(changed.length / 2)]! ^= 0x01;
  writeFileSync(join(work, "changed.pdf"), changed);
  writeFileSync(join(work, "changed.pdf.sig"), sig);
  const bad = await cli(["reports", "verify", "changed.pdf"]);
  expect(bad.code).toBe(1);
  expect(bad.stderr).toMatch(
    /^NOT verified: changed\.pdf \(sha256 [0-9a-f]{64}\) does not match its signature .*changed\.pdf\.sig under the report key [0-9a-f]{64} from .*: the file was changed, or it was signed by another key\n$/,
  );
  const openssl = (file: string, keyFile: string) =>
    runCommand(
      "openssl",
      ["pkeyutl", "-verify", "-pubin", "-inkey", keyFile, "-rawin", "-in", file, "-sigfile", `${file}.sig`],
      {
        cwd: work,
        env: { PATH: process.env.PATH ?? "" },
      },
    );
  const opensslBad = await openssl("changed.pdf", "verdict-report-key.pem");
  expect(opensslBad.code).not.toBe(0);
  expect(opensslBad.stdout).toContain("Signature Verification Failure");

  // Another key: refused.
  const other = generateKeyPairSync("ed25519").publicKey.export({ format: "pem", type: "spki" });
  writeFileSync(join(work, "other.pem"), other);
  const wrongKey = await cli(["reports", "verify", "evidence.pdf", "--public-key", "other.pem"]);
  expect(wrongKey.code).toBe(1);
  expect(wrongKey.stderr).toContain("NOT verified: evidence.pdf");
  expect((await openssl("evidence.pdf", "other.pem")).code).not.toBe(0);

  // Nothing to check with: exit 2 and a one-line reason.
  const noSig = await cli(["reports", "verify", "evidence.zip"]);
  expect(noSig).toMatchObject({
    code: 2,
    stderr: expect.stringMatching(/^verdict: signature file not found: .*evidence\.zip\.sig\n$/),
  });
  writeFileSync(
    join(work, "rsa.pem"),
    generateKeyPairSync("rsa", { modulusLength: 1024 }).publicKey.export({ format: "pem", type: "spki" }),
  );
  const rsa = await cli(["reports", "verify", "evidence.pdf", "--public-key", "rsa.pem"]);
  expect(rsa).toMatchObject({ code: 2, stderr: "verdict: rsa.pem is a rsa key; reports are signed with Ed25519\n" });
});
