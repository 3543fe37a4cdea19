// The GitHub path end to end, against GitHub's own REST description: the real all-in-one process
// talks to Prism (@stoplight/prism-cli, validating mode) serving @octokit/openapi's api.github.com
// description as the GitHub API, through a recording front; inbound deliveries are the recorded
// payloads of @octokit/webhooks-examples, signed as GitHub signs them. Connect a GitHub App,
// connect a repository (GitHub answers for it through an installation token minted from the
// App's JWT), deliver a pull request event, and the check run Verdict opens and completes is
// asserted request by request; every test ends with Prism having accepted every request.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { generateKeyPairSync, randomBytes, verify as verifySignature } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@jest/globals";
import { Api, expectError, expectFieldError } from "../support/api.js";
import { auditEventMatching } from "../support/audit.js";
import { CLI, isolatedHome } from "../support/cli.js";
import { launchClocked } from "../support/clocked.js";
import { ROOT, startVerdict, untilLogged, type Verdict } from "../support/server.js";
import {
  gitHubDescription,
  startFront,
  startPrism,
  type Exchange,
  type Prism,
  type PrismFront,
} from "../../services/integrations/test/support/prism.js";
import { githubDelivery, recordedEvents } from "../../services/integrations/test/support/githubEvents.js";
import { startReceiver } from "../../services/webhooks/test/receiver.js";

const { privateKey, publicKey } = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  privateKeyEncoding: { type: "pkcs1", format: "pem" },
  publicKeyEncoding: { type: "spki", format: "pem" },
});
const APP_ID = "123456";
const SECRET = "github-webhook-secret-0123456789";
const AWS_KEY = "AKIAZ7VQ3X4M2N8P5R6T";
const PUBLIC_URL = "https://verdict.example.com";

// GitHub's recorded deliveries: Codertocat/Hello-World's pull request 2, opened (once without
// and once with the App's installation in the payload).
const pullRequests = recordedEvents("pull_request");
const opened = pullRequests.find((e) => e.payload.action === "opened" && e.payload.installation)!.payload;
const openedBare = pullRequests.find((e) => e.payload.action === "opened" && !e.payload.installation)!.payload;
const synchronize = pullRequests.find((e) => e.payload.action === "synchronize")!.payload;
const repository = opened.repository as { id: number; full_name: string; default_branch: string };
const pull = opened.pull_request as { number: number; head: { sha: string } };
const REPO_PATH = `/repos/${repository.full_name}`;

let prism: Prism;
let front: PrismFront;
let v: Verdict;
let api: Api;
let connection: { id: string; events_url: string };

/** A file's content as GitHub's contents API answers it, and the pull request's files listing. */
const files = new Map<string, string>();
function answerChange(content: Record<string, string>) {
  files.clear();
  for (const [path, text] of Object.entries(content)) files.set(path, text);
}

beforeAll(async () => {
  [prism, v] = await Promise.all([
    startPrism(gitHubDescription()),
    // GitHub (Prism) runs on 127.0.0.1, and connection.broken goes to a webhook receiver there
    // over http.
    startVerdict({
      env: {
        VERDICT_PUBLIC_URL: PUBLIC_URL,
        VERDICT_INTEGRATIONS_ALLOW_PRIVATE: "true",
        VERDICT_WEBHOOK_ALLOW_HTTP: "true",
        VERDICT_WEBHOOK_ALLOW_PRIVATE: "true",
      },
    }),
  ]);
  front = await startFront(prism.url);
  api = new Api(v.url, v.bootstrapKey);
  // GitHub's answers for the test's repository, in the shapes the description gives (Prism
  // still checks every request first).
  front.answerWith(
    (method, path) => method === "GET" && path === REPO_PATH,
    () => repository,
  );
  front.answerWith(
    (method, path) => method === "GET" && path.startsWith(`${REPO_PATH}/pulls/${pull.number}/files`),
    () =>
      [...files].map(([filename, text]) => ({
        sha: "bbcd538c8e72b8c175046e27cc8f907076331401",
        filename,
        status: "added",
        additions: text.split("\n").length - 1,
        deletions: 0,
        changes: text.split("\n").length - 1,
        blob_url: `https://github.com/${repository.full_name}/blob/${pull.head.sha}/${filename}`,
        raw_url: `https://github.com/${repository.full_name}/raw/${pull.head.sha}/${filename}`,
        contents_url: `https://api.github.com${REPO_PATH}/contents/${filename}?ref=${pull.head.sha}`,
        patch: `@@ -0,0 +1,${text.split("\n").length - 1} @@\n${text
          .split("\n")
          .slice(0, -1)
          .map((l) => `+${l}`)
          .join("\n")}`,
      })),
  );
  front.answerWith(
    (method, path) => method === "GET" && path.startsWith(`${REPO_PATH}/contents/`),
    (path) => {
      const name = decodeURIComponent(path.slice(`${REPO_PATH}/contents/`.length).split("?")[0]!);
      const text = files.get(name) ?? "";
      return {
        type: "file",
        encoding: "base64",
        size: Buffer.byteLength(text),
        name: name.split("/").pop(),
        path: name,
        content: Buffer.from(text).toString("base64"),
        sha: "3d21ec53a331a6f037a91c368710b99387d012c1",
        url: `https://api.github.com${REPO_PATH}/contents/${name}`,
        git_url: null,
        html_url: null,
        download_url: null,
        _links: { self: "", git: null, html: null },
      };
    },
  );
}, 180_000);

afterAll(async () => {
  await v?.destroy();
  await front?.close();
  await prism?.stop();
});

afterEach(() => {
  // Whatever a test did, GitHub's description accepted every request Verdict sent.
  expect(front.rejected()).toEqual([]);
});

/** The RS256 JWT's claims, once its signature checks out with the App's public key. */
function appJwtClaims(authorization: string | undefined): Record<string, unknown> {
  const [scheme, jwt] = (authorization ?? "").split(" ");
  expect(scheme?.toLowerCase()).toBe("bearer");
  const [header, payload, signature] = jwt!.split(".");
  expect(
    verifySignature("RSA-SHA256", Buffer.from(`${header}.${payload}`), publicKey, Buffer.from(signature!, "base64url")),
  ).toBe(true);
  return JSON.parse(Buffer.from(payload!, "base64url").toString()) as Record<string, unknown>;
}

/** A new organization with a GitHub App connection of its own (to the same GitHub). */
async function organizationWithApp(name: string, appId: string, webhookSecret: string) {
  const created = await api.post("/v1/organizations", { name, plan: "team" });
  const org = api.withKey(created.body.api_key.key);
  const conn = await org.post("/v1/integrations/connections", {
    provider: "github",
    base_url: front.url,
    app_id: appId,
    private_key: privateKey,
    webhook_secret: webhookSecret,
  });
  expect(conn.status).toBe(201);
  return {
    api: org,
    organizationId: created.body.organization.id as string,
    connection: conn.body as {
      id: string;
      events_url: string;
      status: string;
      last_error: string | null;
      last_error_at: string | null;
    },
  };
}

/** A new organization (its own key) with no GitHub connection yet. */
async function organizationWithoutApp(name: string) {
  const created = await api.post("/v1/organizations", { name, plan: "team" });
  expect(created.status).toBe(201);
  return { api: api.withKey(created.body.api_key.key as string) };
}

/** What the integrations service logged (the gateway's request lines left out). */
function integrationsLog(): string {
  return v
    .output()
    .split("\n")
    .filter((line) => line.includes('"service":"integrations"'))
    .join("\n");
}

/** A recorded pull request delivery whose head commit is `sha` (a later push to the pull request). */
function withHead(payload: Record<string, unknown>, sha: string): Record<string, unknown> {
  const copy = structuredClone(payload) as { pull_request: { head: { sha: string } } };
  copy.pull_request.head.sha = sha;
  return copy;
}

function base32(bytes: Buffer): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const b of bytes) bits += b.toString(2).padStart(8, "0");
  return (bits.match(/.{5}/g) ?? []).map((chunk) => alphabet[parseInt(chunk, 2)]).join("");
}

/** A delivery signed with `secret`, to a connection's events URL (its path on this instance). */
function deliver(
  event: string,
  payload: unknown,
  deliveryId?: string,
  secret = SECRET,
  eventsUrl = connection.events_url,
) {
  const { headers, body } = githubDelivery(event, JSON.stringify(payload), secret, deliveryId);
  const url = new URL(eventsUrl);
  return fetch(`${v.url}${url.pathname}${url.search}`, { method: "POST", headers, body: new Uint8Array(body) });
}

/** The exchanges from `from` on, once one completes a check run (Verdict works on the bus). */
async function checkRunCompleted(from: number, timeoutMs = 60_000): Promise<Exchange[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const since = front.exchanges.slice(from);
    if (since.some((e) => e.method === "PATCH" && JSON.parse(e.body || "{}").status === "completed")) return since;
    if (Date.now() > deadline)
      throw new Error(
        `no completed check run; GitHub saw:\n${since.map((e) => `${e.method} ${e.path} ${e.status}`).join("\n")}\nVerdict's log:\n${v.output().slice(-4000)}`,
      );
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("a GitHub App connection", () => {
  it("takes the App's id and a PEM private key, not a token", async () => {
    const base = { provider: "github", base_url: front.url, webhook_secret: SECRET };
    expectFieldError(
      await api.post("/v1/integrations/connections", { ...base, app_id: APP_ID, private_key: "not a key" }),
      422,
      "private_key",
      "INVALID_FORMAT",
    );
    expectFieldError(
      await api.post("/v1/integrations/connections", { ...base, private_key: privateKey }),
      422,
      "app_id",
      "REQUIRED",
    );
    expect(front.exchanges).toEqual([]);
  });

  it("is refused when GitHub refuses the App's JWT, and nothing is kept", async () => {
    front.inject((method, path) => method === "GET" && path.endsWith("/installation"), {
      status: 401,
      body: JSON.stringify({ message: "A JSON web token could not be decoded" }),
    });
    const res = await api.post("/v1/integrations/connections", {
      provider: "github",
      base_url: front.url,
      app_id: APP_ID,
      private_key: privateKey,
      webhook_secret: SECRET,
    });
    expectError(res, 422, "validation_error", "PROVIDER_UNAUTHORIZED");
    // Named on the App's key (the dashboard shows it there).
    expect(res.body.details.field).toBe("private_key");
    expect((await api.get("/v1/integrations/connections")).body.connections).toEqual([]);
    front.exchanges.length = 0;
  });

  it("is kept once GitHub accepts the App's JWT; its key and secret are never answered", async () => {
    const res = await api.post("/v1/integrations/connections", {
      provider: "github",
      base_url: front.url,
      app_id: APP_ID,
      private_key: privateKey,
      webhook_secret: SECRET,
    });
    expect(res.status).toBe(201);
    // An App's key does not expire; its installation tokens are renewed hourly (none in use yet).
    expect(res.body).toMatchObject({
      provider: "github",
      base_url: front.url,
      app_id: APP_ID,
      status: "active",
      token_expiry: "renewed",
      token_expires_at: null,
    });
    connection = res.body;
    expect(connection.events_url).toBe(`${PUBLIC_URL}/v1/integrations/github/events?connection=${connection.id}`);
    // The App's JWT, signed with its private key, asked GitHub about a repository.
    const lookup = front.exchanges[0]!;
    expect(lookup.path).toMatch(/^\/repos\/[^/]+\/[^/]+\/installation$/);
    const claims = appJwtClaims(lookup.headers.authorization);
    expect(claims.iss).toBe(APP_ID);
    expect(front.exchanges.map((e) => `${e.method} ${e.path}`)).toContain("POST /app/installations/1/access_tokens");
    const listed = await api.get("/v1/integrations/connections");
    expect(listed.text).not.toContain("PRIVATE KEY");
    expect(listed.text).not.toContain(SECRET);
    expect(listed.body.connections).toEqual([res.body]);
    front.exchanges.length = 0;
  });

  it("connects a repository GitHub has, with GitHub's id and default branch; refuses one it has not", async () => {
    front.inject((method, path) => method === "GET" && path === "/repos/Codertocat/nope/installation", {
      status: 404,
      body: JSON.stringify({ message: "Not Found" }),
    });
    expectError(
      await api.post("/v1/repositories", { provider: "github", name: "Codertocat/nope" }),
      422,
      "validation_error",
      "PROVIDER_NOT_FOUND",
    );
    const res = await api.post("/v1/repositories", {
      provider: "github",
      name: repository.full_name,
      default_branch: "main",
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ provider: "github", name: repository.full_name, default_branch: "master" });
    // The installation looked up with the App's JWT, the repository read with the installation's
    // token (minted when the connection was checked, and reused).
    const calls = front.exchanges.filter((e) => !e.injected);
    expect(calls.map((e) => `${e.method} ${e.path}`)).toEqual([`GET ${REPO_PATH}/installation`, `GET ${REPO_PATH}`]);
    expect(appJwtClaims(calls[0]!.headers.authorization).iss).toBe(APP_ID);
    expect(calls[1]!.headers.authorization).toMatch(/^token ghs_/);
    front.exchanges.length = 0;
  });
});

describe("a pull request on GitHub", () => {
  it("that leaks a key gets a check run, in progress at once, completed as failed with an annotation on the line", async () => {
    answerChange({
      "src/config.js": `const region = "eu-west-1";\nconst accessKey = "${AWS_KEY}";\nmodule.exports = { region, accessKey };\n`,
    });
    const res = await deliver("pull_request", opened, "gh-opened-1");
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ outcome: "accepted", delivery_id: "gh-opened-1" });

    const calls = await checkRunCompleted(0);
    const paths = calls.map((e) => `${e.method} ${e.path.split("?")[0]}`);
    // The event named its installation: no lookup; and its token, minted when the repository was
    // connected, is reused rather than minted again.
    expect(paths).not.toContain(`GET ${REPO_PATH}/installation`);
    expect(paths.filter((p) => p.endsWith("/access_tokens"))).toEqual([]);
    // The connection shows that token's expiry (expires_at of GitHub's example answer, as Prism
    // serves it), recorded once the check is done.
    const deadline = Date.now() + 10_000;
    let listed = (await api.get("/v1/integrations/connections")).body.connections[0];
    while (listed.token_expires_at === null && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      listed = (await api.get("/v1/integrations/connections")).body.connections[0];
    }
    expect(listed).toMatchObject({ token_expiry: "renewed", token_expires_at: "2016-07-11T22:14:10Z" });
    const created = calls.find((e) => e.method === "POST" && e.path === `${REPO_PATH}/check-runs`)!;
    expect(JSON.parse(created.body)).toMatchObject({ name: "verdict", head_sha: pull.head.sha, status: "in_progress" });
    // In progress before the files are read.
    expect(paths.indexOf(`POST ${REPO_PATH}/check-runs`)).toBeLessThan(
      paths.indexOf(`GET ${REPO_PATH}/pulls/${pull.number}/files`),
    );
    expect(paths).toContain(`GET ${REPO_PATH}/contents/src%2Fconfig.js`);
    const updates = calls.filter((e) => e.method === "PATCH").map((e) => JSON.parse(e.body));
    expect(updates).toHaveLength(1);
    const [done] = updates;
    expect(done).toMatchObject({
      status: "completed",
      conclusion: "failure",
      details_url: expect.stringMatching(new RegExp(`^${PUBLIC_URL}/evaluations/`)),
      output: { title: expect.stringMatching(/^Verdict: failed, 1 violation/) },
    });
    expect(done.output.annotations).toEqual([
      expect.objectContaining({ path: "src/config.js", start_line: 2, end_line: 2, annotation_level: "failure" }),
    ]);
    expect(done.output.annotations[0].message).toContain("AKIA****");
    expect(done.output.summary).toContain("**1 failure, 0 warnings, 0 notices**");
    expect(done.output.summary).toContain(done.details_url);
    // Nothing Verdict sent GitHub holds the key whole.
    expect(calls.map((e) => e.body).join("\n")).not.toContain(AWS_KEY);

    // The evaluation is Verdict's own, linked to the repository and the commit.
    const evaluations = await api.get("/v1/evaluations", { query: { repository: repository.full_name } });
    expect(evaluations.body.evaluations).toEqual([
      expect.objectContaining({ repository: repository.full_name, ref: pull.head.sha, passed: false }),
    ]);
    expect(done.details_url).toBe(`${PUBLIC_URL}/evaluations/${evaluations.body.evaluations[0].id}`);
    expect((await api.get("/v1/integrations/connections")).body.connections[0].last_event_at).not.toBeNull();
  });

  it("answers a redelivery (same X-GitHub-Delivery) as a duplicate, and a new delivery of the same head is not checked twice", async () => {
    const from = front.exchanges.length;
    const again = await deliver("pull_request", opened, "gh-opened-1");
    expect(await again.json()).toEqual({ outcome: "duplicate", delivery_id: "gh-opened-1" });
    // The same head commit under another delivery (opened without the installation in it): once per head and policy version.
    expect((await deliver("pull_request", openedBare, "gh-opened-2")).status).toBe(202);
    await untilLogged(v, (line) => line.includes("head already checked"));
    expect(front.exchanges.slice(from).filter((e) => e.path.includes("check-runs"))).toEqual([]);
  });

  it("posts more than 50 annotations in batches of 50, the conclusion on the last request", async () => {
    // 60 distinct AWS access key ids (AKIA and 16 characters of base32's alphabet).
    const keys = Array.from({ length: 60 }, () => `AKIA${base32(randomBytes(10))}`);
    answerChange({ "infra/keys.py": keys.map((k, i) => `KEY_${i} = "${k}"\n`).join("") });
    const from = front.exchanges.length;
    expect((await deliver("pull_request", withHead(synchronize, "1".repeat(40)), "gh-sync-1")).status).toBe(202);
    const calls = await checkRunCompleted(from);
    const updates = calls.filter((e) => e.method === "PATCH").map((e) => JSON.parse(e.body));
    expect(updates.map((u) => u.output.annotations?.length ?? 0)).toEqual([50, 10]);
    expect(updates[0].status).toBeUndefined();
    expect(updates[1]).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(updates[1].output.summary).toContain("**60 failures");
    const lines = updates.flatMap((u) => u.output.annotations.map((a: { start_line: number }) => a.start_line));
    expect(lines.sort((a: number, b: number) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    const sent = calls.map((e) => e.body).join("\n");
    for (const k of keys) expect(sent).not.toContain(k);
  });

  it("completes a clean change as success", async () => {
    answerChange({
      "src/config.js": `const accessKey = process.env.AWS_ACCESS_KEY_ID;\nmodule.exports = { accessKey };\n`,
    });
    const from = front.exchanges.length;
    expect((await deliver("pull_request", withHead(synchronize, "2".repeat(40)), "gh-sync-2")).status).toBe(202);
    const calls = await checkRunCompleted(from);
    const [done] = calls.filter((e) => e.method === "PATCH").map((e) => JSON.parse(e.body));
    expect(done).toMatchObject({ status: "completed", conclusion: "success" });
    expect(done.output.annotations).toBeUndefined();
  });
});

describe("a push on GitHub", () => {
  // GitHub's recorded pushes: a branch created on the default branch (master), and tags.
  const pushes = recordedEvents("push").map((e) => e.payload as { ref: string; after: string; deleted: boolean });
  const toDefault = pushes.find((p) => p.ref === `refs/heads/${repository.default_branch}` && !p.deleted)!;
  const tag = pushes.find((p) => p.ref.startsWith("refs/tags/") && !p.deleted)!;

  it("to the default branch gets a check run on the pushed commit, from the commit's files", async () => {
    answerChange({ "deploy/env.sh": `export AWS_ACCESS_KEY_ID=${AWS_KEY}\n` });
    front.answerWith(
      (method, path) => method === "GET" && path.startsWith(`${REPO_PATH}/commits/${toDefault.after}`),
      () => ({
        sha: toDefault.after,
        files: [...files].map(([filename, text]) => ({
          sha: "bbcd538c8e72b8c175046e27cc8f907076331401",
          filename,
          status: "added",
          additions: 1,
          deletions: 0,
          changes: 1,
          patch: `@@ -0,0 +1 @@\n+${text.trimEnd()}`,
        })),
      }),
    );
    const from = front.exchanges.length;
    expect((await deliver("push", toDefault, "gh-push-1")).status).toBe(202);
    const calls = await checkRunCompleted(from);
    const created = calls.find((e) => e.method === "POST" && e.path === `${REPO_PATH}/check-runs`)!;
    expect(JSON.parse(created.body)).toMatchObject({ name: "verdict", head_sha: toDefault.after });
    const [done] = calls.filter((e) => e.method === "PATCH").map((e) => JSON.parse(e.body));
    expect(done).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(done.output.annotations).toEqual([
      expect.objectContaining({ path: "deploy/env.sh", start_line: 1, annotation_level: "failure" }),
    ]);
  });

  it("to a tag (not the default branch) is not checked", async () => {
    const from = front.exchanges.length;
    expect((await deliver("push", tag, "gh-push-tag")).status).toBe(202);
    await untilLogged(v, (line) => line.includes("push to a branch other than the default: ignored"));
    expect(front.exchanges.slice(from)).toEqual([]);
  });
});

describe("an organization that requires no pass (require_evaluation_pass: false)", () => {
  afterAll(async () => {
    await api.patch("/v1/organization", { settings: { require_evaluation_pass: true } });
  });

  it("gets a failing change's check run completed as neutral, its annotations still on the lines", async () => {
    const updated = await api.patch("/v1/organization", { settings: { require_evaluation_pass: false } });
    expect(updated.body.settings.require_evaluation_pass).toBe(false);
    answerChange({ "deploy/env.sh": `export REGION=eu-west-1\nexport AWS_ACCESS_KEY_ID=${AWS_KEY}\n` });
    const from = front.exchanges.length;
    expect((await deliver("pull_request", withHead(synchronize, "4".repeat(40)), "gh-sync-4")).status).toBe(202);
    const calls = await checkRunCompleted(from);
    const [done] = calls.filter((e) => e.method === "PATCH").map((e) => JSON.parse(e.body));
    expect(done).toMatchObject({
      status: "completed",
      conclusion: "neutral",
      output: { title: expect.stringMatching(/^Verdict: failed, not blocking/) },
    });
    expect(done.output.annotations).toEqual([
      expect.objectContaining({ path: "deploy/env.sh", start_line: 2, annotation_level: "failure" }),
    ]);
  });
});

describe("a pull request from a fork", () => {
  it("is checked like any other: read through the base repository's installation, the check run on it", async () => {
    answerChange({ "lib/token.py": `TOKEN = "${AWS_KEY}"\n` });
    // The recorded delivery with its head in another repository (a contributor's fork).
    const fromFork = withHead(opened, "7".repeat(40)) as { pull_request: { head: { repo: { id: number } } } };
    fromFork.pull_request.head.repo = { ...fromFork.pull_request.head.repo, id: 999_999_999 };
    const from = front.exchanges.length;
    expect((await deliver("pull_request", fromFork, "gh-fork-1")).status).toBe(202);
    const calls = await checkRunCompleted(from);
    expect(calls.every((e) => e.path.startsWith(REPO_PATH))).toBe(true);
    const [done] = calls.filter((e) => e.method === "PATCH").map((e) => JSON.parse(e.body));
    expect(done).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(done.output.annotations).toEqual([expect.objectContaining({ path: "lib/token.py", start_line: 1 })]);
  });
});

describe("GitHub's Re-run", () => {
  it("posts the head's check again on check_suite rerequested, from the same evaluation", async () => {
    // The recorded Re-run of pull request 2's head, which the first check found failing.
    const rerun = recordedEvents("check_suite").find((e) => e.payload.action === "rerequested")!.payload;
    expect((rerun.check_suite as { head_sha: string }).head_sha).toBe(pull.head.sha);
    answerChange({
      "src/config.js": `const region = "eu-west-1";\nconst accessKey = "${AWS_KEY}";\nmodule.exports = { region, accessKey };\n`,
    });
    const query = { query: { repository: repository.full_name } };
    const before = (await api.get("/v1/evaluations", query)).body.evaluations;
    const from = front.exchanges.length;
    const res = await deliver("check_suite", rerun, "gh-rerun-1");
    expect(await res.json()).toEqual({ outcome: "accepted", delivery_id: "gh-rerun-1" });
    const calls = await checkRunCompleted(from);
    const created = calls.find((e) => e.method === "POST" && e.path === `${REPO_PATH}/check-runs`)!;
    expect(JSON.parse(created.body)).toMatchObject({ name: "verdict", head_sha: pull.head.sha, status: "in_progress" });
    // A token for the installation the Re-run named.
    const installation = (rerun.installation as { id: number }).id;
    expect(calls.map((e) => e.path)).toContain(`/app/installations/${installation}/access_tokens`);
    const [done] = calls.filter((e) => e.method === "PATCH").map((e) => JSON.parse(e.body));
    expect(done).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(done.output.annotations).toEqual([expect.objectContaining({ path: "src/config.js", start_line: 2 })]);
    // Not evaluated again: the same evaluation, linked.
    expect((await api.get("/v1/evaluations", query)).body.evaluations).toEqual(before);
    expect(before.map((e: { id: string }) => `${PUBLIC_URL}/evaluations/${e.id}`)).toContain(done.details_url);
  });

  it("ignores check_run events other than rerequested", async () => {
    const created = recordedEvents("check_run").find((e) => e.payload.action === "created")!.payload;
    const res = await deliver("check_run", created, "gh-check-run-created");
    expect(await res.json()).toEqual({ outcome: "ignored", delivery_id: "gh-check-run-created" });
  });
});

describe("adversarial deliveries", () => {
  const post = (body: Buffer, headers: Record<string, string>, connectionId = connection.id) =>
    fetch(`${v.url}/v1/integrations/github/events?connection=${connectionId}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: new Uint8Array(body),
    });

  it("refuses forged, unsigned, SHA-1-only and replayed-on-a-changed-body deliveries, and an unknown connection", async () => {
    const from = front.exchanges.length;
    const signed = githubDelivery("pull_request", JSON.stringify(opened), SECRET, "adv-1");
    const forged = githubDelivery("pull_request", JSON.stringify(opened), "not-the-secret-at-all-0123", "adv-1");
    const answers = [
      await post(forged.body, forged.headers),
      await post(signed.body, { ...signed.headers, "x-hub-signature-256": "" }),
      await post(signed.body, {
        ...Object.fromEntries(Object.entries(signed.headers).filter(([k]) => k !== "x-hub-signature-256")),
        "x-hub-signature": `sha1=${"0".repeat(40)}`,
      }),
      // GitHub's signature of one body, sent with another (a replay with a changed payload).
      await post(Buffer.from(JSON.stringify({ ...opened, number: 3 })), signed.headers),
      await post(signed.body, signed.headers, "conn_01jd0000000000000000000000"),
    ];
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: "INVALID_SIGNATURE" });
    }
    // Signed, but not a payload GitHub sends: 400, never a 500.
    const malformed = githubDelivery("pull_request", JSON.stringify({ action: "opened" }), SECRET, "adv-2");
    const bad = await post(malformed.body, malformed.headers);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: "INVALID_PAYLOAD" });
    // Over the events route's 1 MiB: refused before the signature is even looked at.
    const big = githubDelivery("pull_request", Buffer.alloc(2 * 1024 * 1024, 0x20), SECRET, "adv-3");
    expect((await post(big.body, big.headers)).status).toBe(413);
    await new Promise((r) => setTimeout(r, 500));
    expect(front.exchanges.length).toBe(from);
  });

  it("does not check another organization's repository through its own App", async () => {
    const secretB = "globex-github-secret-0123456789";
    const globex = await organizationWithApp("Globex", "654321", secretB);
    const conn = { body: globex.connection };
    expect((await globex.api.get("/v1/integrations/connections")).body.connections).toEqual([conn.body]);
    // acme's connection refuses Globex's signature.
    const crossSigned = githubDelivery("pull_request", JSON.stringify(opened), secretB, "globex-0");
    expect((await post(crossSigned.body, crossSigned.headers)).status).toBe(401);
    // A delivery to Globex's connection, signed with its secret, for acme's repository.
    const from = front.exchanges.length;
    const { headers, body } = githubDelivery(
      "pull_request",
      JSON.stringify(withHead(opened, "3".repeat(40))),
      secretB,
      "globex-1",
    );
    const res = await post(body, headers, conn.body.id);
    expect(await res.json()).toEqual({ outcome: "accepted", delivery_id: "globex-1" });
    const orgB = globex.organizationId;
    await untilLogged(
      v,
      (line) => line.includes("event for a repository not connected: ignored") && line.includes(orgB),
    );
    expect(front.exchanges.slice(from).filter((e) => e.path.includes("check-runs"))).toEqual([]);
    expect((await globex.api.get("/v1/evaluations")).body.evaluations).toEqual([]);
  });
});

describe("a repository renamed or transferred on GitHub", () => {
  // GitHub's recorded repository events: Octocoders/Hello-World renamed, and transferred from octocat.
  const recorded = recordedEvents("repository");
  const renamed = recorded.find((e) => e.payload.action === "renamed")!.payload;
  const transferred = recorded.find((e) => e.payload.action === "transferred" && e.payload.installation)!.payload;
  const moved = renamed.repository as { id: number; full_name: string; owner: Record<string, unknown> };
  const secretH = "hooli-github-secret-0123456789";
  let hooli: Awaited<ReturnType<typeof organizationWithApp>>;
  /** GitHub's answer for the repository (GitHub's id) under a name it had or has. */
  const answerAs = (fullName: string) => {
    const [owner, name] = fullName.split("/");
    front.answerWith(
      (method, path) => method === "GET" && path === `/repos/${fullName}`,
      () => ({ ...moved, full_name: fullName, name, owner: { ...moved.owner, login: owner } }),
    );
  };
  const repositories = async () =>
    (await hooli.api.get("/v1/repositories")).body.repositories as { id: string; name: string }[];
  const until = async (ok: (names: string[]) => boolean) => {
    for (const deadline = Date.now() + 30_000; !ok((await repositories()).map((r) => r.name));) {
      if (Date.now() > deadline) throw new Error(`not followed:\n${integrationsLog().slice(-3000)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const connectAs = async (fullName: string) => {
    for (const r of await repositories()) await hooli.api.delete(`/v1/repositories/${r.id}`);
    answerAs(fullName);
    const res = await hooli.api.post("/v1/repositories", { provider: "github", name: fullName });
    expect(res.body).toMatchObject({ name: fullName });
  };
  const deliverTo = async (payload: unknown, deliveryId: string) => {
    const res = await deliver("repository", payload, deliveryId, secretH, hooli.connection.events_url);
    expect(await res.json()).toEqual({ outcome: "accepted", delivery_id: deliveryId });
  };

  beforeAll(async () => {
    hooli = await organizationWithApp("Hooli", "424242", secretH);
    answerAs(moved.full_name);
  });

  it("follows a rename by GitHub's id at once: the stored name changes, audited as repository.renamed", async () => {
    await connectAs("Octocoders/Hello-Old");
    await deliverTo(renamed, "gh-repository-renamed");
    await until((names) => names.includes(moved.full_name));
    const audited = await auditEventMatching(hooli.api, (e) => e.type === "repository.renamed");
    expect(audited).toMatchObject({
      actor: { type: "system" },
      target: { type: "repository" },
      data: { changes: { name: { before: "Octocoders/Hello-Old", after: moved.full_name } } },
    });
  });

  it("follows a transfer to an account the App is installed on, and disconnects a repository transferred where it is not", async () => {
    await connectAs("octocat/Hello-World");
    const from = front.exchanges.length;
    await deliverTo(transferred, "gh-repository-transferred-1");
    await until((names) => names.includes(moved.full_name));
    // GitHub was asked whether the App is installed on the new owner's account.
    expect(front.exchanges.slice(from).map((e) => `${e.method} ${e.path}`)).toContain(
      `GET /repos/${moved.full_name}/installation`,
    );

    // Transferred again, to an account without the App: GitHub answers 404 for its installation.
    await connectAs("octocat/Hello-World");
    front.inject((method, path) => method === "GET" && path === `/repos/${moved.full_name}/installation`, {
      status: 404,
      body: JSON.stringify({ message: "Not Found" }),
    });
    await deliverTo(transferred, "gh-repository-transferred-2");
    await until((names) => names.length === 0);
    const audited = await auditEventMatching(
      hooli.api,
      (e) => e.type === "repository.disconnected" && e.actor.type === "system",
    );
    expect(audited).toMatchObject({ data: { changes: { name: { before: "octocat/Hello-World", after: null } } } });
  });
});

describe("a revoked App", () => {
  it("marks the connection broken, with GitHub's refusal as its last error, and tells webhooks; restored once GitHub accepts it", async () => {
    const secretI = "initech-github-secret-0123456789";
    const { api: initech, connection: connI } = await organizationWithApp("Initech", "777777", secretI);
    const receiver = await startReceiver();
    const hook = await initech.post("/v1/webhooks", {
      url: receiver.url,
      events: ["connection.broken", "connection.restored"],
    });
    expect(hook.status).toBe(201);
    receiver.secret = hook.body.secret;
    expect((await initech.post("/v1/repositories", { provider: "github", name: repository.full_name })).status).toBe(
      201,
    );
    // GitHub refuses the App from now on (its installation revoked): 401 on what it reads
    // (@octokit/auth-app retries a 401 for a few seconds after minting a token, as GitHub advises).
    const restore = front.injectAlways(
      (method, path) => method === "GET" && path.startsWith(`${REPO_PATH}/pulls/${pull.number}/files`),
      { status: 401, body: JSON.stringify({ message: "Bad credentials" }) },
    );
    const res = await deliver("pull_request", withHead(opened, "6".repeat(40)), undefined, secretI, connI.events_url);
    expect(res.status).toBe(202);
    const deadline = Date.now() + 30_000;
    let health = connI;
    while (health.status !== "broken") {
      if (Date.now() > deadline) throw new Error(`not broken:\n${integrationsLog().slice(-3000)}`);
      await new Promise((r) => setTimeout(r, 200));
      [health] = (await initech.get("/v1/integrations/connections")).body.connections;
    }
    restore();
    expect(health.last_error).toMatch(/401|Bad credentials/);
    expect(health.last_error).not.toContain("PRIVATE KEY");
    // acme's connection, another App, is untouched.
    expect((await api.get("/v1/integrations/connections")).body.connections[0].status).toBe("active");
    // Subscribers hear of it once, signed: the connection's address and the error's class only.
    const connectionFields = { connection_id: connI.id, provider: "github", base_url: front.url };
    await receivedAtLeast(receiver, 1);
    expect(receiver.received.map((r) => [r.json.event, r.verified])).toEqual([["connection.broken", true]]);
    expect(receiver.received[0]!.json.data).toEqual({
      organization_id: expect.stringMatching(/^org_/),
      ...connectionFields,
      error_class: "unauthorized",
      broken_at: health.last_error_at,
    });

    // GitHub accepts the App again: the next check through it restores the connection.
    answerChange({ "src/config.js": "module.exports = {};\n" });
    const from = front.exchanges.length;
    const again = await deliver("pull_request", withHead(opened, "7".repeat(40)), undefined, secretI, connI.events_url);
    expect(again.status).toBe(202);
    await checkRunCompleted(from);
    await receivedAtLeast(receiver, 2);
    expect(receiver.received.map((r) => [r.json.event, r.verified])).toEqual([
      ["connection.broken", true],
      ["connection.restored", true],
    ]);
    expect(receiver.received[1]!.json.data).toEqual({
      organization_id: receiver.received[0]!.json.data.organization_id,
      ...connectionFields,
      restored_at: expect.any(String),
    });
    expect((await initech.get("/v1/integrations/connections")).body.connections[0].status).toBe("active");
    const sent = receiver.received.map((r) => r.body).join("");
    for (const secret of [privateKey, secretI, "PRIVATE KEY"]) expect(sent).not.toContain(secret);
    await receiver.close();
  });
});

async function receivedAtLeast(receiver: { received: unknown[] }, n: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (receiver.received.length < n) {
    if (Date.now() > deadline) throw new Error(`${receiver.received.length} webhook messages, not ${n}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("docs/integrations/github.md", () => {
  const doc = readFileSync(join(ROOT, "docs/integrations/github.md"), "utf8");
  const blocks = [...doc.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const keyDir = mkdtempSync(join(tmpdir(), "verdict-github-app-"));
  writeFileSync(join(keyDir, "verdict.private-key.pem"), privateKey);

  /**
   * The page's block with the test's addresses, run as written by bash in the key's folder
   * (asynchronously: the GitHub API it reaches through Verdict is served by this process).
   */
  async function follow(block: string, replacements: [string, string][], env: Record<string, string>) {
    const script = replacements.reduce((text, [from, to]) => {
      expect(text).toContain(from);
      return text.replace(from, to);
    }, block);
    try {
      const { stdout } = await promisify(execFile)(
        "bash",
        ["--norc", "--noprofile", "-euo", "pipefail", "-c", script],
        {
          cwd: keyDir,
          env: { PATH: process.env.PATH ?? "", ...env },
          encoding: "utf8",
        },
      );
      return stdout;
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string };
      throw new Error(
        `the page's block failed:\n${e.stdout}\n${e.stderr}\nVerdict's log:\n${v.output().slice(-3000)}`,
        {
          cause: err,
        },
      );
    }
  }

  async function newOrganization(name: string) {
    const created = await api.post("/v1/organizations", { name, plan: "team" });
    return { key: created.body.api_key.key as string, api: api.withKey(created.body.api_key.key) };
  }

  it("connects the App and a repository by following the page's API steps as written", async () => {
    const org = await newOrganization("Hooli");
    const out = await follow(
      blocks[0]!,
      [
        ["VERDICT_URL=http://localhost:8080", `VERDICT_URL=${v.url}`],
        ["GITHUB_API_URL=https://api.github.com", `GITHUB_API_URL=${front.url}`],
        ["WEBHOOK_SECRET=the-apps-webhook-secret", `WEBHOOK_SECRET=${SECRET}`],
      ],
      { VERDICT_API_KEY: org.key },
    );
    const answers = out.split(/\n(?=\{)/).map((d) => JSON.parse(d));
    const [conn] = (await org.api.get("/v1/integrations/connections")).body.connections;
    expect(answers).toEqual([
      { provider: "github", app_id: "123456", events_url: conn.events_url },
      // Prism's example repository of GitHub's description: its default branch, not the request's.
      { name: "acme/payments", provider: "github", default_branch: "master" },
    ]);
    expect(conn).toMatchObject({ provider: "github", base_url: front.url, app_id: "123456", status: "active" });
    // The webhook secret given is the connection's: a delivery signed with it is accepted.
    const res = await deliver("ping", {}, "docs-ping", SECRET, conn.events_url);
    expect(await res.json()).toEqual({ outcome: "ignored", delivery_id: "docs-ping" });
  });

  it("connects the App and a repository by following the page's CLI commands", async () => {
    const org = await newOrganization("Pied Piper");
    const out = await follow(
      `verdict() { "${process.execPath}" "${CLI}" "$@"; }\n${blocks[1]!}`,
      [
        ["export VERDICT_URL=http://localhost:8080", `export VERDICT_URL=${v.url}`],
        ["--base-url https://api.github.com", `--base-url ${front.url}`],
      ],
      { ...isolatedHome(), VERDICT_API_KEY: org.key },
    );
    const [conn] = (await org.api.get("/v1/integrations/connections")).body.connections;
    expect(conn).toMatchObject({ provider: "github", base_url: front.url, app_id: "123456", status: "active" });
    expect(out).toContain(`created ${conn.id} (github App 123456 at ${front.url})`);
    expect(out).toContain(`events URL (the provider's webhook target): ${conn.events_url}`);
    expect(out).toMatch(/connected acme\/payments as repo_/);
    expect(out).not.toContain("PRIVATE KEY");
    expect((await org.api.get("/v1/repositories")).body.repositories).toEqual([
      expect.objectContaining({ name: "acme/payments", provider: "github", default_branch: "master" }),
    ]);
    const secret = /webhook secret \(shown once[^:]*\): ([0-9a-f]{48})$/m.exec(out)![1]!;
    expect((await deliver("ping", {}, "cli-ping", secret, conn.events_url)).status).toBe(202);
  });
});

describe("the GitHub App one-click set-up (a manifest)", () => {
  /** A set-up started by `who` (an organization's key) against the GitHub of the test. */
  async function start(who: Api, body: Record<string, unknown> = { base_url: front.url }) {
    const res = await who.post("/v1/integrations/github/app-manifests", body);
    expect(res.status).toBe(201);
    return res.body as {
      state: string;
      form_url: string;
      action: string;
      manifest: Record<string, any>;
      connection_id: string;
      expires_at: string;
    };
  }
  const conversions = () => front.exchanges.filter((e) => e.path.startsWith("/app-manifests/"));

  it("offers a manifest for the organization's new App and a page that posts it to GitHub", async () => {
    const started = await start(api, { base_url: front.url, organization: "acme-corp" });
    // The App's home, webhook (naming the connection it becomes) and redirect on Verdict's public address.
    expect(started.manifest).toMatchObject({
      url: PUBLIC_URL,
      hook_attributes: {
        url: `${PUBLIC_URL}/v1/integrations/github/events?connection=${started.connection_id}`,
        active: true,
      },
      redirect_url: `${PUBLIC_URL}/connections/github/callback`,
      public: false,
      default_permissions: { checks: "write", contents: "read", pull_requests: "read", metadata: "read" },
    });
    expect(started.action).toBe(`${front.url}/organizations/acme-corp/settings/apps/new?state=${started.state}`);
    expect(started.form_url).toBe(
      `${PUBLIC_URL}/v1/integrations/github/app-manifests/form?state=${encodeURIComponent(started.state)}`,
    );
    expect(Date.parse(started.expires_at) - Date.now()).toBeGreaterThan(59 * 60_000);
    // The page: the manifest in a form to that GitHub, posted by its one script.
    const page = await fetch(`${v.url}${new URL(started.form_url).pathname}${new URL(started.form_url).search}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(page.headers.get("content-security-policy")).toContain(`form-action ${front.url};`);
    const html = await page.text();
    expect(html).toContain(`action="${started.action}"`);
    // An Enterprise Server: its API under /api/v3, its pages at the host; a malformed owner refused.
    const ghes = await start(api, { base_url: `${front.url}/api/v3` });
    expect(ghes.action).toBe(`${front.url}/settings/apps/new?state=${ghes.state}`);
    expectFieldError(
      await api.post("/v1/integrations/github/app-manifests", { organization: "-not a login" }),
      400,
      "organization",
      "INVALID_FORMAT",
    );
    // A port past 65535 is no address (found by the fuzzer: it was a 500).
    expectFieldError(
      await api.post("/v1/integrations/github/app-manifests", { base_url: "http://ghes.example.com:74973" }),
      400,
      "base_url",
      "INVALID_FORMAT",
    );
  });

  it("turns GitHub's code into the connection, once: a replayed or forged state is refused", async () => {
    const org = await organizationWithoutApp("Initech");
    const started = await start(org.api);
    const before = conversions().length;
    const done = await org.api.post("/v1/integrations/github/app-manifests/conversions", {
      state: started.state,
      code: "a1b2c3d4",
    });
    expect(done.status).toBe(201);
    // GitHub's example answer (App 1) became the connection the manifest's webhook names.
    expect(done.body).toMatchObject({ id: started.connection_id, provider: "github", app_id: "1", status: "active" });
    expect(done.body.events_url).toBe(started.manifest.hook_attributes.url);
    expect(JSON.stringify(done.body)).not.toMatch(/PRIVATE KEY|e340154128314309424b7c8e90325147d99fdafa/);
    const [conversion] = conversions().slice(before);
    expect([conversion?.method, conversion?.path]).toEqual(["POST", "/app-manifests/a1b2c3d4/conversions"]);
    expect((await org.api.get("/v1/integrations/connections")).body.connections).toEqual([done.body]);
    // The webhook secret GitHub made signs the App's deliveries.
    const ping = await deliver(
      "ping",
      {},
      "manifest-ping",
      "e340154128314309424b7c8e90325147d99fdafa",
      done.body.events_url,
    );
    expect(ping.status).toBe(202);
    // Used up: a replay, and its page, are gone; a forged state is unknown.
    const replay = await org.api.post("/v1/integrations/github/app-manifests/conversions", {
      state: started.state,
      code: "a1b2c3d4",
    });
    expectError(replay, 422, "validation_error", "MANIFEST_STATE_INVALID");
    expect(replay.body.details.field).toBe("state");
    expect((await fetch(`${v.url}/v1/integrations/github/app-manifests/form?state=${started.state}`)).status).toBe(404);
    const forged = await org.api.post("/v1/integrations/github/app-manifests/conversions", {
      state: "A".repeat(43),
      code: "a1b2c3d4",
    });
    expectError(forged, 422, "validation_error", "MANIFEST_STATE_INVALID");
    expect(conversions().length).toBe(before + 1);
  });

  it("refuses another organization's state and another caller's, without using them up", async () => {
    const org = await organizationWithoutApp("Vandelay");
    const started = await start(org.api);
    const before = conversions().length;
    // Another organization.
    const other = await api.post("/v1/integrations/github/app-manifests/conversions", {
      state: started.state,
      code: "a1b2c3d4",
    });
    expectError(other, 422, "validation_error", "MANIFEST_STATE_INVALID");
    // Another key of the same organization (another caller).
    const key = await org.api.post("/v1/api-keys", { name: "second", scopes: ["write:org", "read:org"] });
    expect(key.status).toBe(201);
    const second = await org.api.withKey(key.body.key).post("/v1/integrations/github/app-manifests/conversions", {
      state: started.state,
      code: "a1b2c3d4",
    });
    expectError(second, 422, "validation_error", "MANIFEST_STATE_INVALID");
    expect(conversions().length).toBe(before);
    // GitHub does not know the code (expired, or used): on code; the state is used up all the same.
    front.inject((method, path) => method === "POST" && path.startsWith("/app-manifests/"), {
      status: 404,
      body: JSON.stringify({ message: "Not Found", documentation_url: "https://docs.github.com/rest" }),
    });
    const unknown = await org.api.post("/v1/integrations/github/app-manifests/conversions", {
      state: started.state,
      code: "stale",
    });
    expectError(unknown, 422, "validation_error", "PROVIDER_NOT_FOUND");
    expect(unknown.body.details.field).toBe("code");
    expect((await org.api.get("/v1/integrations/connections")).body.connections).toEqual([]);
    // A viewer-scoped key may not start one.
    const reader = await org.api.post("/v1/api-keys", { name: "reader", scopes: ["read:org"] });
    expect((await org.api.withKey(reader.body.key).post("/v1/integrations/github/app-manifests", {})).status).toBe(403);
  });

  it("expires after an hour: the page is gone and the code is not converted", async () => {
    let now = new Date();
    const clocked = await launchClocked("manifest", { now: () => now }, { VERDICT_INTEGRATIONS_ALLOW_PRIVATE: "true" });
    try {
      const res = await clocked.api.post("/v1/integrations/github/app-manifests", { base_url: front.url });
      expect(res.status).toBe(201);
      now = new Date(now.getTime() + 61 * 60_000);
      const form = await fetch(
        `${clocked.api.baseUrl}/v1/integrations/github/app-manifests/form?state=${res.body.state}`,
      );
      expect(form.status).toBe(404);
      const before = conversions().length;
      const late = await clocked.api.post("/v1/integrations/github/app-manifests/conversions", {
        state: res.body.state,
        code: "a1b2c3d4",
      });
      expectError(late, 422, "validation_error", "MANIFEST_STATE_EXPIRED");
      expect(conversions().length).toBe(before);
    } finally {
      await clocked.stop();
    }
  });
});
