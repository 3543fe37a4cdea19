// Live verification (opt-in, docs/detection.md): an organization that turns it on has the AWS
// credentials its evaluations find checked with STS GetCallerIdentity, against a real
// STS-compatible server (moto, which knows one IAM user's access key and checks signatures).
// Off by default, never for another organization, rate limited, and the credential never in
// the logs.
import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Api, expectFieldError } from "../support/api.js";
import { auditEventOfRequest } from "../support/audit.js";
import { isolatedHome, runCli } from "../support/cli.js";
import { eventually } from "../support/eventually.js";
import { startMoto, type Moto } from "../support/moto.js";
import { startVerdict, type Verdict } from "../support/server.js";

const PER_MINUTE = 3;
let v: Verdict;
let moto: Moto;
let operator: Api;

const newOrg = async () => {
  const res = await operator.post("/v1/organizations", { name: `org ${Math.random()}` });
  expect(res.status).toBe(201);
  return operator.withKey(res.body.api_key.key);
};

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
/** An access key id and secret nobody issued, of AWS's formats. */
const madeUp = () => ({
  accessKeyId: `AKIA${Array.from(randomBytes(16), (b) => ALNUM[b % 32]).join("")}`,
  secretAccessKey: randomBytes(30).toString("base64"),
});

const credentialsFile = (k: { accessKeyId: string; secretAccessKey: string }) =>
  `[default]\naws_access_key_id = ${k.accessKeyId}\naws_secret_access_key = ${k.secretAccessKey}\n`;

const evaluate = async (api: Api, files: { path: string; content: string }[]) => {
  const res = await api.post("/v1/evaluations", {
    repository: "acme/deploy",
    ref: "main",
    files: files.map((f) => ({ ...f, status: "added" })),
  });
  expect(res.status).toBe(201);
  return res.body.violations.filter((x: { policy_id: string }) => x.policy_id === "aws-credentials") as {
    rule_id: string;
    file: string;
    verification?: string;
    verification_checked_at?: string;
  }[];
};

const turnOn = async (api: Api) => {
  const res = await api.patch("/v1/organization", { settings: { live_verification: { enabled: true } } });
  expect(res.status).toBe(200);
  return res;
};

beforeAll(async () => {
  moto = await startMoto();
  v = await startVerdict({
    env: {
      VERDICT_LIVE_VERIFICATION_AWS_STS_URL: moto.url,
      VERDICT_LIVE_VERIFICATION_ALLOW_PRIVATE: "127.0.0.1",
      VERDICT_LIVE_VERIFICATION_PER_MINUTE: String(PER_MINUTE),
    },
  });
  operator = new Api(v.url, v.bootstrapKey);
});
afterAll(async () => {
  await v?.destroy();
  await moto?.stop();
});

describe("the setting", () => {
  it("is off by default; turned on by an admin it names every supported provider, and is audited", async () => {
    const api = await newOrg();
    const before = await api.get("/v1/organization");
    expect(before.body.settings.live_verification).toEqual({ enabled: false, providers: [] });
    const res = await turnOn(api);
    expect(res.body.settings.live_verification).toEqual({ enabled: true, providers: ["aws"] });
    const event = await auditEventOfRequest(api, res.headers.get("x-request-id"));
    expect(event.type).toBe("organization.updated");
    expect(event.data.changes?.["settings.live_verification"]).toEqual({
      before: { enabled: false, providers: [] },
      after: { enabled: true, providers: ["aws"] },
    });
    const off = await api.patch("/v1/organization", { settings: { live_verification: { enabled: false } } });
    expect(off.body.settings.live_verification).toEqual({ enabled: false, providers: ["aws"] });
  });

  it("refuses a provider it cannot ask, naming the field", async () => {
    const api = await newOrg();
    const res = await api.patch("/v1/organization", {
      settings: { live_verification: { enabled: true, providers: ["aws", "example"] } },
    });
    expectFieldError(res, 400, "settings.live_verification.providers[1]", "INVALID_ENUM");
  });
});

describe("AWS through STS GetCallerIdentity", () => {
  let on: Api;
  beforeAll(async () => {
    on = await newOrg();
    await turnOn(on);
  });

  it("a key the server knows is live, on both the key id's and the secret's violation", async () => {
    const found = await evaluate(on, [{ path: ".aws/credentials", content: credentialsFile(moto.known) }]);
    expect(found.map((f) => [f.rule_id, f.verification])).toEqual([
      ["aws-access-key-id", "live"],
      ["aws-secret-access-key", "live"],
    ]);
    for (const f of found) expect(Date.parse(f.verification_checked_at!)).toBeGreaterThan(Date.now() - 60_000);
  });

  it("a made-up key is revoked (InvalidClientTokenId)", async () => {
    const found = await evaluate(on, [{ path: "deploy/.env", content: credentialsFile(madeUp()) }]);
    expect(found.map((f) => f.verification)).toEqual(["revoked", "revoked"]);
  });

  it("a key id with no secret beside it is not_checked: there is nothing to ask with", async () => {
    const found = await evaluate(on, [{ path: "id.txt", content: `key = ${madeUp().accessKeyId}\n` }]);
    expect(found.map((f) => [f.verification, f.verification_checked_at])).toEqual([["not_checked", undefined]]);
  });

  it("an organization that did not turn it on gets not_checked, and the server is not asked", async () => {
    const off = await newOrg();
    const asked = moto.requests();
    const found = await evaluate(off, [{ path: ".aws/credentials", content: credentialsFile(moto.known) }]);
    expect(found.map((f) => [f.verification, f.verification_checked_at])).toEqual([
      ["not_checked", undefined],
      ["not_checked", undefined],
    ]);
    // The server's log is in order: after one request of the organization that has it on, it
    // shows exactly one more.
    await evaluate(on, [{ path: "one.ini", content: credentialsFile(madeUp()) }]);
    await eventually(() => expect(moto.requests()).toBe(asked + 1));
  });

  it("past the organization's rate limit a credential is unknown, unasked", async () => {
    const limited = await newOrg();
    await turnOn(limited);
    const asked = moto.requests();
    const keys = [moto.known, madeUp(), madeUp(), madeUp(), madeUp()];
    const found = await evaluate(
      limited,
      keys.map((k, i) => ({ path: `env/${i}.ini`, content: credentialsFile(k) })),
    );
    // Asked in the order found, until the limit.
    expect(found.filter((f) => f.rule_id === "aws-access-key-id").map((f) => f.verification)).toEqual([
      "live",
      "revoked",
      "revoked",
      "unknown",
      "unknown",
    ]);
    await eventually(() => expect(moto.requests() - asked).toBe(PER_MINUTE));
  });

  it("the CLI turns it on, and its text and SARIF output say what the provider answered", async () => {
    const created = await operator.post("/v1/organizations", { name: `cli ${Math.random()}` });
    const env = { ...isolatedHome(), VERDICT_URL: v.url, VERDICT_API_KEY: created.body.api_key.key as string };
    const work = mkdtempSync(join(tmpdir(), "verdict-live-"));
    writeFileSync(join(work, "credentials"), credentialsFile(moto.known));
    const cli = (args: string[]) => runCli(args, { cwd: work, env });
    const on = await cli(["organization", "update", "--live-verification", "true"]);
    expect(on.stdout).toContain("live_verification=on(aws)");
    expect((await cli(["organization"])).stdout).toMatch(/live_verification\s+on\(aws\)/);
    const text = await cli(["evaluate", "credentials", "--repository", "acme/deploy"]);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/credentials:2:\d+ error aws-credentials .* \[live: the provider accepted it\]$/m);
    const sarif = JSON.parse(
      (await cli(["evaluate", "credentials", "--repository", "acme/deploy", "--format", "sarif"])).stdout,
    );
    expect(
      sarif.runs[0].results.map((r: { properties: Record<string, string> }) => r.properties["verdict-verification"]),
    ).toEqual(["live", "live"]);
    expect(text.stdout + JSON.stringify(sarif)).not.toContain(moto.known.secretAccessKey);
  });

  it("the credentials never reach the process's output", () => {
    expect(v.output()).toContain("live verification asked the providers");
    expect(v.output()).not.toContain(moto.known.secretAccessKey);
    expect(v.output()).not.toContain(moto.known.accessKeyId);
  });
});
