// GitLab end to end, as far as these machines allow: no GitLab server runs here, so the real
// all-in-one process talks to the double of GitLab's REST API v4 written from GitLab's API
// documentation (services/integrations/test/support/gitlabApi.ts: real HTTP, documented paths,
// PRIVATE-TOKEN, commit status transitions, merge request notes), and the deliveries are built
// with the fields GitLab's "Webhook events" documentation lists, carrying the secret token the
// project webhook was given by following docs/integrations/gitlab.md. Connect, register the
// project, deliver a merge request event: a failing status and ONE note; a later push edits the
// same note and flips the status; a forged token is 401 and nothing is evaluated.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Api, expectError, expectFieldError } from "../support/api.js";
import { auditEventMatching } from "../support/audit.js";
import { ROOT, startVerdict, untilLogged, type Verdict } from "../support/server.js";
import {
  startGitLabApi,
  type GitLabApi,
  type GitLabStatus,
} from "../../services/integrations/test/support/gitlabApi.js";
import {
  gitlabDelivery,
  mergeRequestHook,
  pushHook,
  type GitLabProjectRef,
} from "../../services/integrations/test/support/gitlabEvents.js";

const run = promisify(execFile);
const AWS_KEY = "AKIAZ7VQ3X4M2N8P5R6T";
const TOKEN = "glpat-verdict-access-token-01";
const MAINTAINER_TOKEN = "glpat-maintainer-token-0001";
const SECRET = "gitlab-secret-token-0123456789";
const PUBLIC_URL = "https://verdict.example.com";
const PAYMENTS: GitLabProjectRef = { id: 42, path_with_namespace: "acme/payments" };
const BASE = "1000000000000000000000000000000000000001";
const LEAK = "1000000000000000000000000000000000000002";
const FIX = "1000000000000000000000000000000000000003";

let gitlab: GitLabApi;
let v: Verdict;
let api: Api;
let eventsPath: string;

/** A delivery to the project's webhook, as GitLab posts it (the hook's URL and secret token). */
function deliver(event: string, payload: unknown, opts: { token?: string; uuid?: string } = {}) {
  const hook = gitlab.hooks.find((h) => h.project_id === PAYMENTS.id)!;
  const { headers, body } = gitlabDelivery(event, payload, opts.token ?? hook.token, opts.uuid);
  // The answer is checked against Verdict's OpenAPI document, as every other API answer.
  return api.request("POST", eventsPath, { key: null, headers, rawBody: body.toString("utf8") });
}

/** Verdict's status on a commit, once it is no longer running (the bus drives it). */
async function verdictStatus(sha: string, timeoutMs = 60_000): Promise<GitLabStatus> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const s = gitlab.statuses(PAYMENTS.id, sha).find((x) => x.name === "verdict");
    if (s && s.status !== "running" && s.status !== "pending") return s;
    if (Date.now() > deadline)
      throw new Error(`no Verdict status on ${sha}; Verdict's log:\n${v.output().slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The merge request's notes once Verdict's is there with `text` (it is written after the status). */
async function notesWith(iid: number, text: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const notes = gitlab.notes(PAYMENTS.id, iid);
    if (notes.some((n) => n.body.includes(text))) return notes;
    if (Date.now() > deadline) throw new Error(`no note with ${text}; Verdict's log:\n${v.output().slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const statesPosted = (sha: string) =>
  gitlab.requests
    .filter((r) => r.method === "POST" && r.path.endsWith(`/statuses/${sha}`))
    .map((r) => (JSON.parse(r.body) as { state: string }).state);

beforeAll(async () => {
  // The double runs on 127.0.0.1: the operator setting for a provider inside the network.
  [gitlab, v] = await Promise.all([
    startGitLabApi(TOKEN),
    startVerdict({ env: { VERDICT_INTEGRATIONS_ALLOW_PRIVATE: "true", VERDICT_PUBLIC_URL: PUBLIC_URL } }),
  ]);
  gitlab.tokens.add(MAINTAINER_TOKEN);
  gitlab.tokenExpiresAt.set(TOKEN, "2027-03-31");
  api = new Api(v.url, v.bootstrapKey);
  gitlab.project({ id: PAYMENTS.id, path: PAYMENTS.path_with_namespace });
  gitlab.commit(BASE, { "README.md": "# payments\n" });
  gitlab.commit(
    LEAK,
    {
      "README.md": "# payments\n",
      "src/config.js": `const region = "eu-west-1";\nconst accessKey = "${AWS_KEY}";\nmodule.exports = { region, accessKey };\n`,
    },
    BASE,
  );
  gitlab.commit(
    FIX,
    {
      "README.md": "# payments\n",
      "src/config.js": `const region = "eu-west-1";\nconst accessKey = process.env.AWS_ACCESS_KEY_ID;\nmodule.exports = { region, accessKey };\n`,
    },
    LEAK,
  );
}, 180_000);

afterAll(async () => {
  await v?.destroy();
  await gitlab?.close();
});

describe("a GitLab connection", () => {
  it("is optional: without one, a GitLab repository is stored by name as given, GitLab not asked", async () => {
    const res = await api.post("/v1/repositories", {
      provider: "gitlab",
      name: "acme/legacy",
      default_branch: "trunk",
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ provider: "gitlab", name: "acme/legacy", default_branch: "trunk" });
    expect(gitlab.requests).toEqual([]);
  });

  it("is refused when GitLab refuses the access token, and nothing is kept", async () => {
    const bad = await api.post("/v1/integrations/connections", {
      provider: "gitlab",
      base_url: gitlab.url,
      token: "glpat-revoked",
      webhook_secret: SECRET,
    });
    expectError(bad, 422, "validation_error", "PROVIDER_UNAUTHORIZED");
    expect((await api.get("/v1/integrations/connections")).body.connections).toEqual([]);
  });

  it("is set up by following docs/integrations/gitlab.md as written", async () => {
    const doc = readFileSync(join(ROOT, "docs/integrations/gitlab.md"), "utf8");
    const block = /```sh\n([\s\S]*?)```/.exec(doc)![1]!;
    const script = [
      ["VERDICT_URL=http://localhost:8080", `VERDICT_URL=${v.url}`],
      ["GITLAB_URL=https://gitlab.com", `GITLAB_URL=${gitlab.url}`],
      ["SECRET_TOKEN=$(openssl rand -hex 24)", `SECRET_TOKEN=${SECRET}`],
    ].reduce((text, [from, to]) => {
      expect(text).toContain(from);
      return text.replace(from!, to!);
    }, block);
    // Not execFileSync: the GitLab double answers from this process.
    const { stdout: out } = await run("bash", ["--norc", "--noprofile", "-euo", "pipefail", "-c", script], {
      env: {
        PATH: process.env.PATH ?? "",
        VERDICT_API_KEY: v.bootstrapKey,
        GITLAB_TOKEN: TOKEN,
        GITLAB_MAINTAINER_TOKEN: MAINTAINER_TOKEN,
      },
      encoding: "utf8",
    });
    expect(out.split(/\n(?=\{)/).map((d) => JSON.parse(d))).toEqual([
      { merge_requests_events: true, push_events: true },
      { name: "acme/payments", provider: "gitlab", default_branch: "main" },
    ]);
    const listed = await api.get("/v1/integrations/connections");
    expect(listed.text).not.toContain(TOKEN);
    expect(listed.text).not.toContain(SECRET);
    const [connection] = listed.body.connections;
    // With when its access token expires: GitLab ends it at 00:00 UTC on its expiry date.
    expect(connection).toMatchObject({
      provider: "gitlab",
      base_url: gitlab.url,
      status: "active",
      token_expiry: "expires",
      token_expires_at: "2027-03-31T00:00:00.000Z",
    });
    // GitLab was given the connection's events URL and the secret token.
    expect(gitlab.hooks).toEqual([
      expect.objectContaining({ project_id: PAYMENTS.id, url: connection.events_url, token: SECRET }),
    ]);
    expect(connection.events_url).toBe(`${PUBLIC_URL}/v1/integrations/gitlab/events?connection=${connection.id}`);
    const url = new URL(connection.events_url);
    eventsPath = `${url.pathname}${url.search}`;
    // Verdict's own calls used the access token it was given, the webhook was added with the maintainer's.
    expect(new Set(gitlab.requests.filter((r) => !r.path.endsWith("/hooks")).map((r) => r.token))).toEqual(
      new Set(["glpat-revoked", TOKEN]),
    );
  });

  it("shows a token without an expiry date as never expiring", async () => {
    const created = await api.post("/v1/organizations", { name: "Soylent", plan: "team" });
    const soylent = api.withKey(created.body.api_key.key);
    const res = await soylent.post("/v1/integrations/connections", {
      provider: "gitlab",
      base_url: gitlab.url,
      token: MAINTAINER_TOKEN,
      webhook_secret: SECRET,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ token_expiry: "none", token_expires_at: null });
    const asked = gitlab.requests.filter((r) => r.path === "/api/v4/personal_access_tokens/self");
    expect(asked.map((r) => r.token)).toEqual([TOKEN, MAINTAINER_TOKEN]);
  });

  it("connects only projects GitLab has, with GitLab's default branch whatever the request says", async () => {
    const missing = await api.post("/v1/repositories", { provider: "gitlab", name: "acme/nope" });
    expectError(missing, 422, "validation_error", "PROVIDER_NOT_FOUND");
    gitlab.project({ id: 43, path: "acme/ledger", defaultBranch: "develop" });
    const res = await api.post("/v1/repositories", { provider: "gitlab", name: "acme/ledger", default_branch: "main" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ provider: "gitlab", name: "acme/ledger", default_branch: "develop" });
  });
});

describe("a merge request on GitLab", () => {
  it("that leaks a key gets a failed status and ONE note, secrets masked", async () => {
    gitlab.mergeRequest(PAYMENTS.id, 3, BASE, LEAK);
    const uuid = "5fe4bd4e-0001-4c5c-9f8e-4c5e1c1b0a01";
    const res = await deliver("Merge Request Hook", mergeRequestHook(PAYMENTS, { iid: 3, headSha: LEAK }), { uuid });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ outcome: "accepted", delivery_id: uuid });

    const status = await verdictStatus(LEAK);
    expect(status.status).toBe("failed");
    expect(status.description).toMatch(/^Verdict: failed, 1 violation/);
    expect(status.target_url).toMatch(new RegExp(`^${PUBLIC_URL}/evaluations/`));
    expect(statesPosted(LEAK)).toEqual(["running", "failed"]);
    const notes = await notesWith(3, "Verdict: failed");
    expect(notes).toHaveLength(1);
    expect(notes[0]!.body).toContain("`src/config.js` | 2 |");
    expect(notes[0]!.body).toContain("AKIA****");
    expect(JSON.stringify(gitlab.requests)).not.toContain(AWS_KEY.slice(4));

    // The evaluation is Verdict's own, linked to the repository and the commit.
    const evaluations = await api.get("/v1/evaluations", { query: { repository: "acme/payments" } });
    expect(evaluations.body.evaluations).toEqual([
      expect.objectContaining({ repository: "acme/payments", ref: LEAK, passed: false }),
    ]);
    expect(status.target_url).toBe(`${PUBLIC_URL}/evaluations/${evaluations.body.evaluations[0].id}`);

    // GitLab's retry of the same delivery (the same X-Gitlab-Event-UUID) is a duplicate.
    const again = await deliver("Merge Request Hook", mergeRequestHook(PAYMENTS, { iid: 3, headSha: LEAK }), { uuid });
    expect(again.body).toEqual({ outcome: "duplicate", delivery_id: uuid });
  });

  it("a later push edits the same note and flips the status", async () => {
    gitlab.mergeRequest(PAYMENTS.id, 3, BASE, FIX);
    const update = mergeRequestHook(PAYMENTS, { iid: 3, headSha: FIX, action: "update", oldrev: LEAK });
    expect((await deliver("Merge Request Hook", update)).status).toBe(202);

    const status = await verdictStatus(FIX);
    expect(status.status).toBe("success");
    const notes = await notesWith(3, "Verdict: passed");
    expect(notes).toHaveLength(1);
    expect(notes[0]!.body).not.toContain("src/config.js");
    const noteCalls = gitlab.requests.filter((r) => /\/merge_requests\/3\/notes/.test(r.path) && r.method !== "GET");
    expect(noteCalls.map((r) => r.method)).toEqual(["POST", "PUT"]);
    // The first commit's status is left as it was.
    expect(gitlab.statuses(PAYMENTS.id, LEAK).map((s) => s.status)).toEqual(["failed"]);
  });

  it("with a forged token is 401, and nothing is evaluated or sent to GitLab", async () => {
    const before = gitlab.requests.length;
    const evaluations = (await api.get("/v1/evaluations")).body.evaluations.length;
    const forged = await deliver("Merge Request Hook", mergeRequestHook(PAYMENTS, { iid: 3, headSha: LEAK }), {
      token: "gitlab-secret-token-guessed00",
    });
    expectError(forged, 401, "unauthorized", "INVALID_SIGNATURE");
    const unsigned = await api.request("POST", eventsPath, {
      key: null,
      headers: {
        "x-gitlab-event": "Merge Request Hook",
        "x-gitlab-event-uuid": "5fe4bd4e-0001-4c5c-9f8e-4c5e1c1b0a02",
      },
      rawBody: "{}",
    });
    expectError(unsigned, 401, "unauthorized", "INVALID_SIGNATURE");
    await new Promise((r) => setTimeout(r, 500));
    expect((await api.get("/v1/evaluations")).body.evaluations).toHaveLength(evaluations);
    expect(gitlab.requests).toHaveLength(before);
  });
});

describe("a push to GitLab", () => {
  it("to the default branch is checked: a status on the pushed commit from the comparison, no note", async () => {
    const after = "1000000000000000000000000000000000000006";
    gitlab.commit(
      after,
      { "README.md": "# payments\n", "deploy/env.sh": `export AWS_ACCESS_KEY_ID=${AWS_KEY}\n` },
      BASE,
    );
    const notesBefore = gitlab.requests.filter((r) => r.path.includes("/notes")).length;
    const push = pushHook(PAYMENTS, { ref: "refs/heads/main", before: BASE, after });
    expect((await deliver("Push Hook", push)).body).toMatchObject({ outcome: "accepted" });
    const status = await verdictStatus(after);
    expect(status.status).toBe("failed");
    expect(gitlab.requests.map((r) => r.path)).toContain(
      `/api/v4/projects/acme%2Fpayments/repository/compare?from=${BASE}&to=${after}&straight=false`,
    );
    expect(gitlab.requests.filter((r) => r.path.includes("/notes"))).toHaveLength(notesBefore);
    const evaluations = await api.get("/v1/evaluations", { query: { repository: "acme/payments" } });
    expect(evaluations.body.evaluations).toContainEqual(expect.objectContaining({ ref: after, passed: false }));
  });

  it("to another branch is not checked (its merge request is)", async () => {
    const after = "1000000000000000000000000000000000000007";
    gitlab.commit(after, { "README.md": "# payments\n", "leak.txt": `${AWS_KEY}\n` }, BASE);
    const push = pushHook(PAYMENTS, { ref: "refs/heads/feature/leak", before: BASE, after });
    expect((await deliver("Push Hook", push)).body).toMatchObject({ outcome: "accepted" });
    await untilLogged(v, (line) => line.includes("push to a branch other than the default: ignored"));
    expect(gitlab.statuses(PAYMENTS.id, after)).toEqual([]);
    expect(gitlab.requests.some((r) => r.path.includes(after))).toBe(false);
  });
});

describe("GitLab faults", () => {
  it("waits out a rate limit's Retry-After, then reports", async () => {
    const head = "1000000000000000000000000000000000000004";
    gitlab.commit(head, { "README.md": "# payments\n", "lib/token.py": `TOKEN = "${AWS_KEY}"\n` }, BASE);
    gitlab.mergeRequest(PAYMENTS.id, 4, BASE, head);
    gitlab.inject((method, path) => method === "POST" && path.endsWith(`/statuses/${head}`), 429, {
      "retry-after": "1",
    });
    const started = Date.now();
    expect((await deliver("Merge Request Hook", mergeRequestHook(PAYMENTS, { iid: 4, headSha: head }))).status).toBe(
      202,
    );
    expect((await verdictStatus(head)).status).toBe("failed");
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    // The first status was answered 429 and sent again once its Retry-After had passed.
    expect(statesPosted(head)).toEqual(["running", "running", "failed"]);
    expect(await notesWith(4, "Verdict: failed")).toHaveLength(1);
  });

  it("marks the connection broken when GitLab refuses its access token", async () => {
    const head = "1000000000000000000000000000000000000005";
    gitlab.commit(head, { "README.md": "# payments\nrevoked\n" }, BASE);
    gitlab.mergeRequest(PAYMENTS.id, 5, BASE, head);
    gitlab.tokens.delete(TOKEN);
    try {
      await deliver("Merge Request Hook", mergeRequestHook(PAYMENTS, { iid: 5, headSha: head }));
      const deadline = Date.now() + 60_000;
      let health;
      for (;;) {
        health = (await api.get("/v1/integrations/connections")).body.connections[0];
        if (health.status === "broken") break;
        if (Date.now() > deadline) throw new Error(`not broken: ${JSON.stringify(health)}\n${v.output().slice(-3000)}`);
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(health.last_error).toMatch(/^GitLab commit status: 401/);
      expect(health.last_error).not.toContain(TOKEN);
      expect(gitlab.statuses(PAYMENTS.id, head)).toEqual([]);
    } finally {
      gitlab.tokens.add(TOKEN);
    }
  });
});

describe("a project renamed or transferred in GitLab", () => {
  it("is followed by GitLab's id: the stored name changes, the audit log records it, the check reports on the new path", async () => {
    gitlab.moveProject(PAYMENTS.id, "finance/payments");
    const moved = { ...PAYMENTS, path_with_namespace: "finance/payments" };
    const head = "1000000000000000000000000000000000000008";
    gitlab.commit(head, { "README.md": "# payments, moved\n" }, BASE);
    gitlab.mergeRequest(PAYMENTS.id, 6, BASE, head);
    expect((await deliver("Merge Request Hook", mergeRequestHook(moved, { iid: 6, headSha: head }))).status).toBe(202);

    expect((await verdictStatus(head)).status).toBe("success");
    expect(gitlab.requests.map((r) => r.path)).toContain(`/api/v4/projects/finance%2Fpayments/statuses/${head}`);
    const names = (await api.get("/v1/repositories")).body.repositories.map((r: { name: string }) => r.name);
    expect(names).toContain("finance/payments");
    expect(names).not.toContain("acme/payments");
    const audited = await auditEventMatching(api, (e) => e.type === "repository.renamed");
    expect(audited).toMatchObject({
      actor: { type: "system" },
      target: { type: "repository" },
      data: { changes: { name: { before: "acme/payments", after: "finance/payments" } } },
    });
    // The evaluation is filed under the new name.
    const evaluations = await api.get("/v1/evaluations", { query: { repository: "finance/payments" } });
    expect(evaluations.body.evaluations).toEqual([expect.objectContaining({ ref: head })]);
  });
});

describe("a project in nested subgroups", () => {
  it("is followed into a subgroup and checked under its full path; a nested project is connected by it", async () => {
    gitlab.moveProject(PAYMENTS.id, "finance/treasury/payments");
    const moved = { ...PAYMENTS, path_with_namespace: "finance/treasury/payments" };
    const head = "1000000000000000000000000000000000000009";
    gitlab.commit(head, { "src/config.js": `const accessKey = "${AWS_KEY}";\n` }, BASE);
    gitlab.mergeRequest(PAYMENTS.id, 7, BASE, head);
    expect((await deliver("Merge Request Hook", mergeRequestHook(moved, { iid: 7, headSha: head }))).status).toBe(202);

    expect((await verdictStatus(head)).status).toBe("failed");
    expect(gitlab.requests.map((r) => r.path)).toContain(
      `/api/v4/projects/finance%2Ftreasury%2Fpayments/statuses/${head}`,
    );
    const names = (await api.get("/v1/repositories")).body.repositories.map((r: { name: string }) => r.name);
    expect(names).toContain("finance/treasury/payments");
    const evaluations = await api.get("/v1/evaluations", { query: { repository: "finance/treasury/payments" } });
    expect(evaluations.body.evaluations).toEqual([expect.objectContaining({ ref: head, passed: false })]);

    // Connected by its full path, GitLab asked for it (URL-encoded).
    gitlab.project({ id: 44, path: "acme/platform/api", defaultBranch: "trunk" });
    const res = await api.post("/v1/repositories", { provider: "gitlab", name: "acme/platform/api" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: "acme/platform/api", default_branch: "trunk" });
    expect(gitlab.requests.map((r) => r.path)).toContain("/api/v4/projects/acme%2Fplatform%2Fapi");
    // Other providers' names stay <owner>/<repo>: the schema's form, a rule between fields (422).
    const github = await api.post("/v1/repositories", { provider: "github", name: "acme/platform/api" });
    expectFieldError(github, 422, "name", "INVALID_FORMAT");
  });
});
