// The GitHub adapter against GitHub's own REST description: Prism serves @octokit/openapi's
// api.github.com (and ghes-3.19 for an Enterprise Server base URL) and refuses any request that
// does not match GitHub's schemas; every test ends by asserting it refused none.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@jest/globals";
import { generateKeyPairSync, verify as verifySignature } from "node:crypto";
import { Egress } from "@verdict/kit";
import { gitHubDescription, startFront, startPrism, type Prism, type PrismFront } from "../../../test/support/prism.js";
import type { Annotation, ChangeRef } from "../../domain/provider.js";
import type { RetryPolicy } from "../../domain/retry.js";
import { GitHubClient } from "./client.js";
import { providerFetch } from "../../main.js";
import { convertManifestCode } from "./manifest.js";

const { privateKey, publicKey } = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  privateKeyEncoding: { type: "pkcs1", format: "pem" },
  publicKeyEncoding: { type: "spki", format: "pem" },
});
const APP_ID = "123456";
const INSTALLATION = 42;
const REPO = { owner: "octocat", name: "Hello-World" };
const HEAD = "6dcb09b5b57875f334f61aebed695e2e4193db5e";
const BASE = "e5bd3914e2e596debea16f433f57875b5b90bcd6";
/** Short waits so that the fault tests stay cheap; a Retry-After is still honoured whole. */
const FAST: RetryPolicy = { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 5_000 };

let prism: Prism;
let ghesPrism: Prism;
let front: PrismFront;
let ghesFront: PrismFront;

beforeAll(async () => {
  // Assigned as each starts, so that afterAll stops one that started when the other failed.
  const starting = [
    startPrism(gitHubDescription()).then((started) => (prism = started)),
    startPrism(gitHubDescription("ghes-3.19")).then((started) => (ghesPrism = started)),
  ];
  await Promise.allSettled(starting);
  await Promise.all(starting);
  front = await startFront(prism.url);
  ghesFront = await startFront(ghesPrism.url, { stripPrefix: "/api/v3" });
});

afterAll(async () => {
  await Promise.all([front?.close(), ghesFront?.close()]);
  await Promise.all([prism?.stop(), ghesPrism?.stop()]);
});

afterEach(() => {
  // Whatever a test did, GitHub's description accepted every request Verdict sent.
  expect([...front.rejected(), ...ghesFront.rejected()]).toEqual([]);
  front.exchanges.length = 0;
  ghesFront.exchanges.length = 0;
});

function client(apiBaseUrl = front.url) {
  return new GitHubClient({
    credentials: { appId: APP_ID, privateKey, apiBaseUrl },
    installationId: INSTALLATION,
    retry: FAST,
  });
}

/** The JWT's claims, once its RS256 signature checks out with the App's public key. */
function appJwtClaims(authorization: string | undefined): Record<string, unknown> {
  const [scheme, jwt] = (authorization ?? "").split(" ");
  expect(scheme?.toLowerCase()).toBe("bearer");
  const [header, payload, signature] = jwt!.split(".");
  const signed = Buffer.from(`${header}.${payload}`);
  expect(verifySignature("RSA-SHA256", signed, publicKey, Buffer.from(signature!, "base64url"))).toBe(true);
  expect(JSON.parse(Buffer.from(header!, "base64url").toString())).toMatchObject({ alg: "RS256" });
  return JSON.parse(Buffer.from(payload!, "base64url").toString()) as Record<string, unknown>;
}

describe("GitHubClient on GitHub's REST description", () => {
  it("has a harness that catches a request GitHub's description refuses", async () => {
    const answer = await fetch(`${front.url}/repos/octocat/Hello-World/check-runs/4`, {
      method: "PATCH",
      headers: { "content-type": "application/json", authorization: "token x" },
      body: JSON.stringify({ status: "completed", conclusion: "error" }),
    });
    expect(answer.status).toBe(422);
    expect(front.rejected().flatMap((e) => e.violations)).toContainEqual(
      expect.stringContaining("conclusion must be equal to one of the allowed values"),
    );
    front.exchanges.length = 0;
  });

  it("mints an installation token from the App's JWT, then reads the repository with it", async () => {
    const repository = await client().getRepository(REPO);
    expect(repository).toEqual({
      providerRepoId: "1296269",
      fullName: "octocat/Hello-World",
      defaultBranch: "master",
      private: false,
    });
    const [mint, lookup] = front.exchanges;
    expect([mint?.method, mint?.path]).toEqual(["POST", `/app/installations/${INSTALLATION}/access_tokens`]);
    const claims = appJwtClaims(mint?.headers.authorization);
    expect(claims.iss).toBe(APP_ID);
    expect(Number(claims.exp) - Number(claims.iat)).toBeLessThanOrEqual(600);
    expect([lookup?.method, lookup?.path]).toEqual(["GET", "/repos/octocat/Hello-World"]);
    // GitHub's example installation token, as the token endpoint answered it.
    expect(lookup?.headers.authorization).toBe("token ghs_16C7e42F292c6912E7710c838347Ae178B4a");
  });

  it("reuses the installation token for later calls", async () => {
    const github = client();
    await github.getRepository(REPO);
    await github.getRepository(REPO);
    expect(front.exchanges.map((e) => e.path.split("?")[0])).toEqual([
      `/app/installations/${INSTALLATION}/access_tokens`,
      "/repos/octocat/Hello-World",
      "/repos/octocat/Hello-World",
    ]);
  });

  it("lists a pull request's files page by page, a push's comparison, and a new branch's commit", async () => {
    const github = client();
    const files = "/repos/octocat/Hello-World/pulls/1347/files";
    front.nextPage((_, path) => path === `${files}?per_page=100`, `${front.url}${files}?per_page=100&page=2`);
    const pull = await github.listChangedFiles({ repo: REPO, headSha: HEAD, pullNumber: 1347 });
    // GitHub's example page (file1.txt, added) twice: page 1, then page 2 from the Link header.
    expect(pull).toEqual([
      { path: "file1.txt", status: "added", addedLines: [] },
      { path: "file1.txt", status: "added", addedLines: [] },
    ]);
    expect(front.exchanges.filter((e) => e.path.includes("/pulls/")).map((e) => e.path)).toEqual([
      `${files}?per_page=100`,
      `${files}?per_page=100&page=2`,
    ]);

    const push = await github.listChangedFiles({ repo: REPO, headSha: HEAD, baseSha: BASE });
    expect(push.length).toBeGreaterThan(0);
    expect(front.exchanges.at(-1)?.path).toBe(`/repos/octocat/Hello-World/compare/${BASE}...${HEAD}`);

    await github.listChangedFiles({ repo: REPO, headSha: HEAD, baseSha: "0".repeat(40) });
    expect(front.exchanges.at(-1)?.path).toBe(`/repos/octocat/Hello-World/commits/${HEAD}`);
  });

  it("reads a file's bytes at a commit, and null where it does not exist", async () => {
    const github = client();
    const content = await github.getFileContent(REPO, "docs/README.md", HEAD);
    expect(front.exchanges.at(-1)?.path).toBe(`/repos/octocat/Hello-World/contents/docs%2FREADME.md?ref=${HEAD}`);
    // GitHub's example file (base64 in the JSON answer): octokit.rb's README.
    expect(Buffer.from(content!).subarray(0, 6).toString()).toBe("# Yoga");

    front.inject((method, path) => method === "GET" && path.includes("/contents/"), {
      status: 404,
      body: JSON.stringify({ message: "Not Found" }),
    });
    expect(await github.getFileContent(REPO, "gone.txt", HEAD)).toBeNull();
  });

  it("opens a check run in progress and completes it with annotations in batches of 50", async () => {
    const github = client();
    const change: ChangeRef = { repo: REPO, headSha: HEAD, pullNumber: 1347 };
    const handle = await github.startReport(change, "Verdict");
    const created = front.exchanges.at(-1)!;
    expect([created.method, created.path]).toEqual(["POST", "/repos/octocat/Hello-World/check-runs"]);
    expect(JSON.parse(created.body)).toMatchObject({ name: "Verdict", head_sha: HEAD, status: "in_progress" });
    expect(handle.id).toMatch(/^\d+$/);

    const annotations: Annotation[] = Array.from({ length: 120 }, (_, i) => ({
      path: `src/file${i % 7}.ts`,
      line: i + 1,
      level: i % 3 === 0 ? "failure" : i % 3 === 1 ? "warning" : "notice",
      title: "AWS access key",
      message: "AKIA************MPLE leaked in source",
      fingerprint: `fp_${i}`,
    }));
    const detailsUrl = "https://verdict.example.com/evaluations/eval_01";
    await github.completeReport(change, handle, {
      state: "failure",
      title: "3 secrets found",
      summary: "Verdict found secrets in this change.",
      detailsUrl,
      annotations,
    });
    const updates = front.exchanges.filter((e) => e.method === "PATCH");
    expect(updates.map((e) => e.path)).toEqual(Array(3).fill(`/repos/octocat/Hello-World/check-runs/${handle.id}`));
    const bodies = updates.map((e) => JSON.parse(e.body));
    expect(bodies.map((b) => b.output.annotations.length)).toEqual([50, 50, 20]);
    expect(bodies.map((b) => b.conclusion)).toEqual([undefined, undefined, "failure"]);
    expect(bodies[2]).toMatchObject({ status: "completed", details_url: detailsUrl });
    expect(bodies[2].output.summary).toContain("**40 failures, 40 warnings, 40 notices**");
    expect(bodies[2].output.summary).toContain(`(${detailsUrl})`);
    expect(bodies[0].output.annotations[1]).toEqual({
      path: "src/file1.ts",
      start_line: 2,
      end_line: 2,
      annotation_level: "warning",
      title: "AWS access key",
      message: "AKIA************MPLE leaked in source",
      raw_details: "fingerprint: fp_1",
    });
  });

  it("keeps a check run in progress on a pending report and completes a clean one at once", async () => {
    const github = client();
    const change: ChangeRef = { repo: REPO, headSha: HEAD };
    await github.completeReport(
      change,
      { id: "4" },
      {
        state: "pending",
        title: "Pending, retrying",
        summary: "GitHub rate-limited Verdict; the evaluation is retried.",
        annotations: [],
      },
    );
    await github.completeReport(
      change,
      { id: "4" },
      { state: "success", title: "No findings", summary: "Clean.", annotations: [] },
    );
    const [pending, done] = front.exchanges.filter((e) => e.method === "PATCH").map((e) => JSON.parse(e.body));
    expect(pending).toMatchObject({ status: "in_progress" });
    expect(pending.conclusion).toBeUndefined();
    expect(done).toMatchObject({ status: "completed", conclusion: "success" });
    expect(done.output.annotations).toBeUndefined();
  });

  it("shows a retried check as a new run in progress, and ends a superseded one as cancelled", async () => {
    const github = client();
    const change: ChangeRef = { repo: REPO, headSha: HEAD, pullNumber: 1347 };
    await github.reportRetrying(change, "verdict", "the provider is rate-limiting");
    await github.cancelReport(change, { id: "4" }, "Superseded: a newer commit is being checked");
    const created = front.exchanges.find((e) => e.method === "POST" && e.path.endsWith("/check-runs"))!;
    expect(JSON.parse(created.body)).toMatchObject({
      name: "verdict",
      head_sha: HEAD,
      status: "in_progress",
      output: { title: "Verdict: pending, retrying (the provider is rate-limiting)" },
    });
    const cancelled = front.exchanges.find((e) => e.method === "PATCH")!;
    expect(JSON.parse(cancelled.body)).toMatchObject({ status: "completed", conclusion: "cancelled" });
  });

  it("looks the repository's installation up with the App's JWT when no event named it", async () => {
    const github = new GitHubClient({ credentials: { appId: APP_ID, privateKey, apiBaseUrl: front.url }, retry: FAST });
    await github.getRepository(REPO);
    await github.getFileContent(REPO, "README", HEAD);
    const [lookup, mint, ...reads] = front.exchanges;
    expect([lookup?.method, lookup?.path]).toEqual(["GET", "/repos/octocat/Hello-World/installation"]);
    expect(appJwtClaims(lookup?.headers.authorization).iss).toBe(APP_ID);
    // GitHub's example installation (id 1): its token, minted once, reads the repository.
    expect(mint?.path).toBe("/app/installations/1/access_tokens");
    expect(reads.map((e) => e.headers.authorization)).toEqual([
      "token ghs_16C7e42F292c6912E7710c838347Ae178B4a",
      "token ghs_16C7e42F292c6912E7710c838347Ae178B4a",
    ]);
  });

  it("talks to a GitHub Enterprise Server under its /api/v3 base URL", async () => {
    const github = client(ghesFront.url);
    expect(ghesFront.url).toMatch(/\/api\/v3$/);
    const repository = await github.getRepository(REPO);
    expect(repository.fullName).toBe("octocat/Hello-World");
    expect(ghesFront.exchanges.map((e) => e.path)).toEqual([
      `/api/v3/app/installations/${INSTALLATION}/access_tokens`,
      "/api/v3/repos/octocat/Hello-World",
    ]);
    expect(ghesFront.exchanges.every((e) => !e.injected && e.status < 300)).toBe(true);
    await github.startReport({ repo: REPO, headSha: HEAD }, "Verdict");
    expect(ghesFront.exchanges.at(-1)?.path).toBe("/api/v3/repos/octocat/Hello-World/check-runs");
  });
});

describe("GitHubClient under faults (a real server in front of Prism)", () => {
  const repoPath = (method: string, path: string) => method === "GET" && path === "/repos/octocat/Hello-World";

  it("waits out a 429's Retry-After once, then passes through", async () => {
    front.inject(repoPath, { status: 429, headers: { "retry-after": "1" } });
    const started = Date.now();
    const repository = await client().getRepository(REPO);
    expect(repository.providerRepoId).toBe("1296269");
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    const lookups = front.exchanges.filter((e) => repoPath(e.method, e.path));
    expect(lookups.map((e) => [e.status, e.injected])).toEqual([
      [429, true],
      [200, false],
    ]);
  });

  it("honours GitHub's rate-limit 403 and its x-ratelimit-reset", async () => {
    const reset = String(Math.ceil(Date.now() / 1000) + 1);
    front.inject(repoPath, {
      status: 403,
      headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": reset },
      body: JSON.stringify({ message: "API rate limit exceeded" }),
    });
    await expect(client().getRepository(REPO)).resolves.toMatchObject({ fullName: "octocat/Hello-World" });
    expect(front.exchanges.filter((e) => repoPath(e.method, e.path)).map((e) => e.status)).toEqual([403, 200]);
  });

  it("retries 5xx with backoff, then gives up with unavailable", async () => {
    front.inject(repoPath, { status: 502 }, { status: 503 }, { status: 500 });
    await expect(client().getRepository(REPO)).rejects.toMatchObject({
      name: "ProviderError",
      code: "unavailable",
      status: 500,
    });
    expect(front.exchanges.filter((e) => repoPath(e.method, e.path))).toHaveLength(3);
  });

  it("does not retry a refusal: a revoked App (401), a repository it cannot read (403, 404)", async () => {
    front.inject((method, path) => method === "POST" && path.endsWith("/access_tokens"), {
      status: 401,
      body: JSON.stringify({ message: "A JSON web token could not be decoded" }),
    });
    await expect(client().getRepository(REPO)).rejects.toMatchObject({ code: "unauthorized", status: 401 });
    front.inject(repoPath, {
      status: 403,
      body: JSON.stringify({ message: "Resource not accessible by integration" }),
    });
    await expect(client().getRepository(REPO)).rejects.toMatchObject({ code: "forbidden", status: 403 });
    front.inject(repoPath, { status: 404, body: JSON.stringify({ message: "Not Found" }) });
    await expect(client().getRepository(REPO)).rejects.toMatchObject({ code: "not_found", status: 404 });
    expect(front.exchanges.filter((e) => e.injected)).toHaveLength(3);
    expect(front.exchanges.filter((e) => repoPath(e.method, e.path) && !e.injected)).toHaveLength(0);
  });

  it("says how long to wait when the provider asks for longer than it sleeps in-process", async () => {
    front.inject(repoPath, { status: 429, headers: { "retry-after": "3600" } });
    await expect(client().getRepository(REPO)).rejects.toMatchObject({ code: "rate_limited", retryAfterMs: 3_600_000 });
  });
});

describe("the GitHub App manifest's code conversion", () => {
  it("exchanges the one-time code for the App's credentials, without any credential of its own", async () => {
    const app = await convertManifestCode("a1b2c3d4", front.url);
    const [conversion] = front.exchanges;
    expect([conversion?.method, conversion?.path]).toEqual(["POST", "/app-manifests/a1b2c3d4/conversions"]);
    expect(conversion?.headers.authorization).toBeUndefined();
    // GitHub's example answer.
    expect(app).toMatchObject({ appId: "1", slug: "octoapp", owner: "github", apiBaseUrl: front.url });
    expect(app.privateKey).toContain("-----BEGIN RSA PRIVATE KEY-----");
    expect(app.webhookSecret).toBe("e340154128314309424b7c8e90325147d99fdafa");
    expect(app.clientSecret).toBe("1726be1638095a19edd134c77bde3aa2ece1e5d8");
  });

  it("answers not_found for a code that expired or was already used", async () => {
    front.inject((method, path) => method === "POST" && path.startsWith("/app-manifests/"), {
      status: 404,
      body: JSON.stringify({ message: "Not Found" }),
    });
    await expect(convertManifestCode("used", front.url)).rejects.toMatchObject({ code: "not_found" });
    expect(front.exchanges).toHaveLength(1);
  });

  it("goes through the fetch it is given: the SSRF guard refuses a private address before anything is sent", async () => {
    const guarded = providerFetch(new Egress({ allowPrivate: false }), 5_000);
    await expect(convertManifestCode("a1b2c3d4", front.url, guarded)).rejects.toMatchObject({ code: "unavailable" });
    expect(front.exchanges).toHaveLength(0);
  });

  it("converts on a GitHub Enterprise Server", async () => {
    const app = await convertManifestCode("a1b2c3d4", ghesFront.url);
    expect(app.apiBaseUrl).toBe(ghesFront.url);
    expect(ghesFront.exchanges.map((e) => e.path)).toEqual(["/api/v3/app-manifests/a1b2c3d4/conversions"]);
  });
});
