// Live verification (opt-in, docs/detection.md): an organization that turns it on has the AWS
// credentials its evaluations find checked with STS GetCallerIdentity, against a real
// STS-compatible server (moto, which knows one IAM user's access key and checks signatures), and
// its GitHub tokens with GET /user, its Slack tokens with auth.test and its Stripe keys with
// GET /v1/balance, against doubles written from each provider's documentation.
// Off by default, never for another organization, rate limited, and the credential never in
// the logs.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { crc32Base62 } from "@verdict/kit";
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

/** A GitHub token of the documented format: prefix, 30 base62 characters, their CRC-32 in 6. */
const githubToken = () => {
  const random = Array.from(randomBytes(30), (b) => BASE62[b % 62]).join("");
  return `ghp_${random}${crc32Base62(random)}`;
};
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const KNOWN_GITHUB_TOKEN = githubToken();

/** A provider double on a local port: what it was asked (method and path), and its answers. */
interface Double {
  url: string;
  seen: string[];
  close(): Promise<void>;
}
async function startDouble(answer: (req: IncomingMessage) => { status: number; body: unknown }): Promise<Double> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const { status, body } = answer(req);
    res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise((r) => server.close(() => r())) };
}

/**
 * GitHub's GET /user, written from GitHub's REST documentation (no internet here): 200 with the
 * user for a token it issued, 401 "Bad credentials" for any other.
 */
let github: Double;
const startGitHubDouble = () =>
  startDouble((req) =>
    req.method === "GET" && req.url === "/user" && req.headers.authorization === `Bearer ${KNOWN_GITHUB_TOKEN}`
      ? { status: 200, body: { login: "octocat", id: 1, type: "User" } }
      : {
          status: 401,
          body: { message: "Bad credentials", documentation_url: "https://docs.github.com/rest", status: "401" },
        },
  );

const alnum = (n: number) => Array.from(randomBytes(n), (b) => BASE62[b % 62]).join("");
const digits = (n: number) => Array.from(randomBytes(n), (b) => String(b % 10)).join("");
/** A Slack bot token of the documented shape: team id, bot id, secret. */
const slackToken = () => `xoxb-${digits(10)}-${digits(13)}-${alnum(24)}`;
const KNOWN_SLACK_TOKEN = slackToken();

/**
 * Slack's Web API auth.test, from Slack's documentation: HTTP 200 either way, `"ok": true` with
 * the team and user for a token Slack issued, `"ok": false, "error": "invalid_auth"` otherwise.
 */
let slack: Double;
const startSlackDouble = () =>
  startDouble((req) =>
    req.method === "POST" && req.url === "/auth.test" && req.headers.authorization === `Bearer ${KNOWN_SLACK_TOKEN}`
      ? { status: 200, body: { ok: true, url: "https://acme.slack.com/", team: "Acme", user: "deploy-bot" } }
      : { status: 200, body: { ok: false, error: "invalid_auth" } },
  );

const KNOWN_STRIPE_KEY = `sk_live_${alnum(24)}`;
/** A restricted key Stripe issued without the permission to read the balance. */
const NARROW_STRIPE_KEY = `rk_live_${alnum(24)}`;
/**
 * Stripe's GET /v1/balance, from Stripe's API reference: 200 with the balance for a key it
 * issued, 403 for a key it issued that lacks the permission, 401 for any other key.
 */
let stripe: Double;
const startStripeDouble = () =>
  startDouble((req) => {
    const key = req.method === "GET" && req.url === "/v1/balance" ? req.headers.authorization : undefined;
    if (key === `Bearer ${KNOWN_STRIPE_KEY}`)
      return { status: 200, body: { object: "balance", available: [], pending: [], livemode: true } };
    if (key === `Bearer ${NARROW_STRIPE_KEY}`)
      return {
        status: 403,
        body: {
          error: { type: "invalid_request_error", message: "The provided key does not have the required permissions" },
        },
      };
    return { status: 401, body: { error: { type: "invalid_request_error", message: "Invalid API Key provided" } } };
  });

beforeAll(async () => {
  moto = await startMoto();
  github = await startGitHubDouble();
  slack = await startSlackDouble();
  stripe = await startStripeDouble();
  v = await startVerdict({
    env: {
      VERDICT_LIVE_VERIFICATION_AWS_STS_URL: moto.url,
      VERDICT_LIVE_VERIFICATION_GITHUB_API_URL: github.url,
      VERDICT_LIVE_VERIFICATION_SLACK_API_URL: slack.url,
      VERDICT_LIVE_VERIFICATION_STRIPE_API_URL: stripe.url,
      VERDICT_LIVE_VERIFICATION_ALLOW_PRIVATE: "127.0.0.1",
      VERDICT_LIVE_VERIFICATION_PER_MINUTE: String(PER_MINUTE),
    },
  });
  operator = new Api(v.url, v.bootstrapKey);
});
afterAll(async () => {
  await v?.destroy();
  await moto?.stop();
  await github?.close();
  await slack?.close();
  await stripe?.close();
});

describe("the setting", () => {
  it("is off by default; turned on by an admin it names every supported provider, and is audited", async () => {
    const api = await newOrg();
    const before = await api.get("/v1/organization");
    expect(before.body.settings.live_verification).toEqual({ enabled: false, providers: [] });
    const res = await turnOn(api);
    expect(res.body.settings.live_verification).toEqual({
      enabled: true,
      providers: ["aws", "github", "slack", "stripe"],
    });
    const event = await auditEventOfRequest(api, res.headers.get("x-request-id"));
    expect(event.type).toBe("organization.updated");
    expect(event.data.changes?.["settings.live_verification"]).toEqual({
      before: { enabled: false, providers: [] },
      after: { enabled: true, providers: ["aws", "github", "slack", "stripe"] },
    });
    const off = await api.patch("/v1/organization", { settings: { live_verification: { enabled: false } } });
    expect(off.body.settings.live_verification).toEqual({
      enabled: false,
      providers: ["aws", "github", "slack", "stripe"],
    });
  });

  it("takes back the settings as GET /v1/organization answers them, unchanged (the dashboard saves them whole)", async () => {
    const api = await newOrg();
    const before = (await api.get("/v1/organization")).body;
    const res = await api.patch("/v1/organization", { name: before.name, settings: before.settings });
    expect(res.status).toBe(200);
    expect(res.body.settings).toEqual(before.settings);
    await turnOn(api);
    const on = (await api.get("/v1/organization")).body;
    const again = await api.patch("/v1/organization", { settings: on.settings });
    expect(again.body.settings.live_verification).toEqual({
      enabled: true,
      providers: ["aws", "github", "slack", "stripe"],
    });
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
    expect(on.stdout).toContain("live_verification=on(aws,github,slack,stripe)");
    expect((await cli(["organization"])).stdout).toMatch(/live_verification\s+on\(aws,github,slack,stripe\)/);
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

  it("GitHub: a token GitHub issued is live, another of the same format revoked, each asked once with GET /user", async () => {
    const api = await newOrg();
    await turnOn(api);
    const other = githubToken();
    const res = await api.post("/v1/evaluations", {
      repository: "acme/deploy",
      ref: "main",
      files: [
        { path: "ci.env", content: `GH_TOKEN=${KNOWN_GITHUB_TOKEN}\nOTHER=${other}\n`, status: "added" },
        { path: "again.env", content: `TOKEN=${KNOWN_GITHUB_TOKEN}\n`, status: "added" },
      ],
    });
    expect(res.status).toBe(201);
    const found = (res.body.violations as { rule_id: string; file: string; line: number; verification?: string }[])
      .filter((x) => x.rule_id === "github-classic-token")
      .map((x) => [x.file, x.line, x.verification]);
    expect(found).toEqual([
      ["ci.env", 1, "live"],
      ["ci.env", 2, "revoked"],
      ["again.env", 1, "live"],
    ]);
    expect(github.seen).toEqual(["GET /user", "GET /user"]);
    expect(v.output()).not.toContain(KNOWN_GITHUB_TOKEN.slice(4));
  });

  /** The violations of `rules` an evaluation of `files` by a new organization that turned it on has. */
  const verified = async (files: Record<string, string>, rules: string[]) => {
    const api = await newOrg();
    await turnOn(api);
    const res = await api.post("/v1/evaluations", {
      repository: "acme/deploy",
      ref: "main",
      files: Object.entries(files).map(([path, content]) => ({ path, content, status: "added" })),
    });
    expect(res.status).toBe(201);
    return (res.body.violations as { rule_id: string; file: string; line: number; verification?: string }[])
      .filter((x) => rules.includes(x.rule_id))
      .map((x) => [x.file, x.line, x.verification]);
  };

  it("Slack: a bot token Slack issued is live, another invalid_auth is revoked, each asked once with auth.test", async () => {
    const other = slackToken();
    const found = await verified(
      { "bot.env": `SLACK_BOT_TOKEN=${KNOWN_SLACK_TOKEN}\nOTHER=${other}\n`, "again.env": `T=${KNOWN_SLACK_TOKEN}\n` },
      ["slack-bot-token"],
    );
    expect(found).toEqual([
      ["bot.env", 1, "live"],
      ["bot.env", 2, "revoked"],
      ["again.env", 1, "live"],
    ]);
    expect(slack.seen).toEqual(["POST /auth.test", "POST /auth.test"]);
    expect(v.output()).not.toContain(KNOWN_SLACK_TOKEN.slice(-24));
  });

  it("Stripe: a key Stripe issued is live, a restricted key without the permission (403) too, another revoked", async () => {
    const other = `sk_live_${alnum(24)}`;
    const found = await verified(
      { "billing.py": `stripe.api_key = "${KNOWN_STRIPE_KEY}"\nNARROW = "${NARROW_STRIPE_KEY}"\nOLD = "${other}"\n` },
      ["stripe-live-secret-key"],
    );
    expect(found).toEqual([
      ["billing.py", 1, "live"],
      ["billing.py", 2, "live"],
      ["billing.py", 3, "revoked"],
    ]);
    expect(stripe.seen).toEqual(["GET /v1/balance", "GET /v1/balance", "GET /v1/balance"]);
    expect(v.output()).not.toContain(KNOWN_STRIPE_KEY.slice(8));
  });

  it("the credentials never reach the process's output", () => {
    expect(v.output()).toContain("live verification asked the providers");
    expect(v.output()).not.toContain(moto.known.secretAccessKey);
    expect(v.output()).not.toContain(moto.known.accessKeyId);
  });
});
