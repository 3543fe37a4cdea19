// Connected repositories end to end, on a real Gitea (scripts/install-gitea.sh) and the real
// all-in-one process: connect Gitea, connect a repository (the provider answers for it), push a
// branch that leaks a key with the real git, open a pull request, and Verdict's failing status
// and line comment arrive from Gitea's own webhook; a fixing push flips the status. Pushes to the
// default branch (a force-push too) get a status on their head commit.
import { execFileSync } from "node:child_process";
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Api, expectError } from "../support/api.js";
import { auditEventMatching } from "../support/audit.js";
import { CLI, isolatedHome, runCli } from "../support/cli.js";
import { startFaultProxy, type FaultProxy } from "../support/faultProxy.js";
import { startGitea, type Checkout, type Gitea } from "../support/gitea.js";
import { ROOT, startVerdict, untilLogged, type Verdict } from "../support/server.js";
import { startReceiver } from "../../services/webhooks/test/receiver.js";

const AWS_KEY = "AKIAZ7VQ3X4M2N8P5R6T";
const SECRET = "gitea-webhook-secret-0123456789";

let gitea: Gitea;
let v: Verdict;
let api: Api;
let connection: { id: string; events_url: string };
let checkout: Checkout;

interface CombinedStatus {
  statuses: { status: string; context: string; description: string; target_url: string }[];
}

/** Verdict's status on a commit, once it is no longer pending (Gitea's own webhook drives it). */
async function verdictStatus(sha: string, repo = "acme/payments", timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const combined = await gitea.api<CombinedStatus>("GET", `/repos/${repo}/commits/${sha}/status`);
    const s = (combined.statuses ?? []).find((x) => x.context === "verdict");
    if (s && s.status !== "pending") return s;
    if (Date.now() > deadline)
      throw new Error(`no Verdict status on ${sha}; Verdict's log:\n${v.output().slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function reviewComments(pull: number, repo = "acme/payments") {
  const reviews = await gitea.api<{ id: number; body: string }[]>("GET", `/repos/${repo}/pulls/${pull}/reviews`);
  const ours = reviews.filter((r) => r.body.includes("verdict:verdict"));
  const comments = [];
  for (const r of ours)
    comments.push(
      ...(await gitea.api<{ path: string; position: number; body: string }[]>(
        "GET",
        `/repos/${repo}/pulls/${pull}/reviews/${r.id}/comments`,
      )),
    );
  return { reviews: ours, comments };
}

beforeAll(async () => {
  // Gitea runs on 127.0.0.1: the operator setting for a provider inside the network.
  // The audit log's stream goes to a receiver on 127.0.0.1 over http.
  const env = {
    VERDICT_INTEGRATIONS_ALLOW_PRIVATE: "true",
    VERDICT_WEBHOOK_ALLOW_HTTP: "true",
    VERDICT_WEBHOOK_ALLOW_PRIVATE: "true",
  };
  [gitea, v] = await Promise.all([startGitea(), startVerdict({ env })]);
  api = new Api(v.url, v.bootstrapKey);
  await gitea.createOrg("acme");
  await gitea.createRepo("acme", "payments");
}, 300_000);

afterAll(async () => {
  await v?.destroy();
  await gitea?.stop();
});

describe("Gitea connection", () => {
  it("is refused when Gitea refuses the token", async () => {
    const bad = await api.post("/v1/integrations/connections", {
      provider: "gitea",
      base_url: gitea.url,
      token: "0".repeat(40),
      webhook_secret: SECRET,
    });
    expectError(bad, 422, "validation_error", "PROVIDER_UNAUTHORIZED");
    expect((await api.get("/v1/integrations/connections")).body.connections).toEqual([]);
  });

  it("is set up by following docs/integrations/gitea.md as written", async () => {
    const doc = readFileSync(join(ROOT, "docs/integrations/gitea.md"), "utf8");
    const block = /```sh\n([\s\S]*?)```/.exec(doc)![1]!;
    const script = [
      ["VERDICT_URL=http://localhost:8080", `VERDICT_URL=${v.url}`],
      ["GITEA_URL=https://gitea.example.com", `GITEA_URL=${gitea.url}`],
      // The test signs deliveries of its own with the secret below.
      ["WEBHOOK_SECRET=$(openssl rand -hex 24)", `WEBHOOK_SECRET=${SECRET}`],
    ].reduce((text, [from, to]) => {
      expect(text).toContain(from);
      return text.replace(from!, to!);
    }, block);
    const out = execFileSync("bash", ["--norc", "--noprofile", "-euo", "pipefail", "-c", script], {
      env: { PATH: process.env.PATH ?? "", VERDICT_API_KEY: v.bootstrapKey, GITEA_TOKEN: gitea.admin.token },
      encoding: "utf8",
    });
    const answers = out.split(/\n(?=\{)/).map((d) => JSON.parse(d));
    expect(answers).toEqual([
      { type: "gitea", active: true },
      { name: "acme/payments", provider: "gitea", default_branch: "main" },
    ]);
    const listed = await api.get("/v1/integrations/connections");
    expect(listed.text).not.toContain(gitea.admin.token);
    expect(listed.text).not.toContain(SECRET);
    expect(listed.body.connections).toEqual([
      // Gitea's tokens do not expire: said so, not left blank.
      expect.objectContaining({
        provider: "gitea",
        base_url: gitea.url,
        status: "active",
        last_event_at: null,
        token_expiry: "none",
        token_expires_at: null,
      }),
    ]);
    connection = listed.body.connections[0];
    expect(connection.events_url).toBe(`${v.url}/v1/integrations/gitea/events?connection=${connection.id}`);
    // The audit log has the connection (provider and address, never the token or the secret).
    const audited = await auditEventMatching(api, (e) => e.type === "integration.connected");
    expect(audited).toMatchObject({
      target: { type: "connection", id: connection.id },
      data: { changes: { provider: { before: null, after: "gitea" }, base_url: { before: null, after: gitea.url } } },
    });
    const log = (await api.get("/v1/audit-events", { query: { limit: 100 } })).text;
    expect(log).not.toContain(gitea.admin.token);
    expect(log).not.toContain(SECRET);
  });

  it("connects only repositories Gitea has, with Gitea's default branch whatever the request says", async () => {
    const missing = await api.post("/v1/repositories", { provider: "gitea", name: "acme/nope" });
    expectError(missing, 422, "validation_error", "PROVIDER_NOT_FOUND");
    await gitea.createRepo("acme", "ledger");
    const res = await api.post("/v1/repositories", { provider: "gitea", name: "acme/ledger", default_branch: "dev" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ provider: "gitea", name: "acme/ledger", default_branch: "main" });
  });
});

describe("a pull request on Gitea", () => {
  let pull: number;

  it("that leaks a key gets a failing status and a comment on the line, from Gitea's own webhook", async () => {
    checkout = await gitea.clone("acme", "payments");
    await checkout.git("checkout", "--quiet", "-b", "feature/config");
    const head = await checkout.commit(
      {
        "src/config.js": `const region = "eu-west-1";\nconst accessKey = "${AWS_KEY}";\nmodule.exports = { region, accessKey };\n`,
      },
      "add config",
    );
    await checkout.git("push", "--quiet", "origin", "feature/config");
    pull = (await gitea.openPullRequest("acme", "payments", "feature/config", "main", "Add config")).number;

    const status = await verdictStatus(head);
    expect(status.status).toBe("failure");
    expect(status.description).toMatch(/^Verdict: failed, 1 violation/);
    const { reviews, comments } = await reviewComments(pull);
    expect(reviews).toHaveLength(1);
    expect(comments).toEqual([expect.objectContaining({ path: "src/config.js", position: 2 })]);
    // What Verdict wrote is masked (Gitea's own diff hunk beside it shows the line as pushed).
    expect(comments[0]!.body).toContain("AKIA****");
    expect(comments.map((c) => c.body).join("\n")).not.toContain(AWS_KEY);
    expect(reviews.map((r) => r.body).join("\n")).not.toContain(AWS_KEY);
    expect(status.description).not.toContain(AWS_KEY);

    // The evaluation is Verdict's own, linked to the repository and the commit.
    const evaluations = await api.get("/v1/evaluations", { query: { repository: "acme/payments" } });
    expect(evaluations.body.evaluations).toEqual([
      expect.objectContaining({ repository: "acme/payments", ref: head, passed: false }),
    ]);
    const health = await api.get("/v1/integrations/connections");
    expect(health.body.connections[0].last_event_at).not.toBeNull();
  });

  it("flips to success on a push that removes the key, and the comment goes", async () => {
    const head = await checkout.commit(
      {
        "src/config.js": `const region = "eu-west-1";\nconst accessKey = process.env.AWS_ACCESS_KEY_ID;\nmodule.exports = { region, accessKey };\n`,
      },
      "read the key from the environment",
    );
    await checkout.git("push", "--quiet", "origin", "feature/config");
    const status = await verdictStatus(head);
    expect(status.status).toBe("success");
    expect((await reviewComments(pull)).comments).toEqual([]);
  });
});

describe("a push to the default branch on Gitea", () => {
  it("that leaks a key gets a failing status on its head commit, a fixing push success; other branches are not checked", async () => {
    const main = await gitea.clone("acme", "payments");
    const start = (await main.git("rev-parse", "HEAD")).trim();
    const leak = await main.commit(
      { "deploy/settings.js": `const accessKey = "${AWS_KEY}";\nmodule.exports = { accessKey };\n` },
      "deploy settings",
    );
    await main.git("push", "--quiet", "origin", "main");
    const failed = await verdictStatus(leak);
    expect(failed.status).toBe("failure");
    expect(failed.description).toMatch(/^Verdict: failed, 1 violation in 1 file/);
    expect(failed.description).not.toContain(AWS_KEY);

    const fixed = await main.commit(
      { "deploy/settings.js": "const accessKey = process.env.AWS_ACCESS_KEY_ID;\nmodule.exports = { accessKey };\n" },
      "read the key from the environment",
    );
    await main.git("push", "--quiet", "origin", "main");
    expect((await verdictStatus(fixed)).status).toBe("success");

    // A force-push that rewrites both commits: what the branch has since their merge base is
    // evaluated (the new file alone), not the files the rewritten commits touched.
    await main.git("reset", "--quiet", "--hard", start);
    const rewritten = await main.commit({ "deploy/keys.js": `module.exports = "${AWS_KEY}";\n` }, "keys");
    await main.git("push", "--quiet", "--force", "origin", "main");
    const forced = await verdictStatus(rewritten);
    expect(forced.status).toBe("failure");
    expect(forced.description).toMatch(/^Verdict: failed, 1 violation in 1 file/);

    // A branch without a pull request is not checked.
    await main.git("checkout", "--quiet", "-b", "scratch");
    const other = await main.commit({ "notes.js": `const k = "${AWS_KEY}";\n` }, "scratch");
    await main.git("push", "--quiet", "origin", "scratch");
    await untilLogged(
      v,
      (line) =>
        line.includes("push to a branch other than the default: ignored") && line.includes("refs/heads/scratch"),
    );
    const combined = await gitea.api<CombinedStatus>("GET", `/repos/acme/payments/commits/${other}/status`);
    expect((combined.statuses ?? []).filter((x) => x.context === "verdict")).toEqual([]);

    // Each pushed head is Verdict's own evaluation, linked to the repository and the commit.
    const evaluations = (await api.get("/v1/evaluations", { query: { repository: "acme/payments" } })).body
      .evaluations as { ref: string; passed: boolean }[];
    for (const [ref, passed] of [
      [leak, false],
      [fixed, true],
      [rewritten, false],
    ] as const)
      expect(evaluations).toContainEqual(expect.objectContaining({ ref, passed }));
    expect(evaluations.map((e) => e.ref)).not.toContain(other);
  });
});

describe("a pull request from a fork", () => {
  it("is checked like any other: read through the base repository, the status posted on it", async () => {
    await gitea.createOrg("contrib");
    await gitea.api("POST", "/repos/acme/payments/forks", { organization: "contrib", name: "payments" });
    const fork = await gitea.clone("contrib", "payments");
    await fork.git("checkout", "--quiet", "-b", "from-fork");
    const head = await fork.commit({ "lib/token.py": `TOKEN = "${AWS_KEY}"\n` }, "a contribution that leaks a key");
    await fork.git("push", "--quiet", "origin", "from-fork");
    const pr = await gitea.openPullRequest("acme", "payments", "contrib:from-fork", "main", "From a fork");
    const status = await verdictStatus(head);
    expect(status.status).toBe("failure");
    expect((await reviewComments(pr.number)).comments).toEqual([
      expect.objectContaining({ path: "lib/token.py", position: 1 }),
    ]);
  });
});

describe("another organization", () => {
  it("cannot have a repository of this organization checked through its own connection", async () => {
    const created = await api.post("/v1/organizations", { name: "Globex", plan: "team" });
    const b = api.withKey(created.body.api_key.key);
    const secretB = "globex-webhook-secret-0123456789";
    const conn = await b.post("/v1/integrations/connections", {
      provider: "gitea",
      base_url: gitea.url,
      token: gitea.admin.token,
      webhook_secret: secretB,
    });
    expect(conn.status).toBe(201);
    // Globex cannot see acme's repositories or connections.
    expect((await b.get("/v1/repositories")).body.repositories).toEqual([]);
    expect((await b.get("/v1/integrations/connections")).body.connections).toEqual([conn.body]);

    // A validly signed delivery to Globex's connection that names acme/payments' pull request.
    const repo = await gitea.api<{ id: number }>("GET", "/repos/acme/payments");
    const sha = (await checkout.git("rev-parse", "HEAD")).trim();
    const before = (await api.get("/v1/evaluations", { query: { repository: "acme/payments" } })).body.evaluations;
    const event = Buffer.from(
      JSON.stringify({
        action: "synchronized",
        number: 1,
        pull_request: { number: 1, head: { sha, repo_id: repo.id }, base: { sha, repo_id: repo.id } },
        repository: { id: repo.id, name: "payments", owner: { login: "acme" } },
      }),
    );
    const res = await fetch(conn.body.events_url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-gitea-event": "pull_request",
        "x-gitea-delivery": "globex-1",
        "x-gitea-signature": createHmac("sha256", secretB).update(event).digest("hex"),
      },
      body: new Uint8Array(event),
    });
    expect(res.status).toBe(202);
    // Processed, and found nothing of Globex's to check.
    const orgB = created.body.organization.id as string;
    await untilLogged(
      v,
      (line) => line.includes("event for a repository not connected: ignored") && line.includes(orgB),
    );
    expect((await b.get("/v1/evaluations")).body.evaluations).toEqual([]);
    expect((await api.get("/v1/evaluations", { query: { repository: "acme/payments" } })).body.evaluations).toEqual(
      before,
    );
  });
});

describe("the verdict CLI", () => {
  it("connects Gitea and a repository by following the page's CLI commands, lists and deletes the connection", async () => {
    const created = await api.post("/v1/organizations", { name: "Umbrella", plan: "team" });
    const env = { ...isolatedHome(), VERDICT_URL: v.url, VERDICT_API_KEY: created.body.api_key.key as string };
    const umbrella = api.withKey(env.VERDICT_API_KEY);
    const doc = readFileSync(join(ROOT, "docs/integrations/gitea.md"), "utf8");
    const block = [...doc.matchAll(/```sh\n([\s\S]*?)```/g)][1]![1]!;
    const script = [
      ["export VERDICT_URL=http://localhost:8080", `export VERDICT_URL=${v.url}`],
      ["GITEA_URL=https://gitea.example.com", `GITEA_URL=${gitea.url}`],
    ].reduce((text, [from, to]) => {
      expect(text).toContain(from);
      return text.replace(from!, to!);
    }, block);
    const out = execFileSync(
      "bash",
      [
        "--norc",
        "--noprofile",
        "-euo",
        "pipefail",
        "-c",
        `verdict() { "${process.execPath}" "${CLI}" "$@"; }\n${script}`,
      ],
      { env: { ...env, PATH: process.env.PATH ?? "", GITEA_TOKEN: gitea.admin.token }, encoding: "utf8" },
    );
    expect(out).not.toContain(gitea.admin.token);
    const [conn] = (await umbrella.get("/v1/integrations/connections")).body.connections;
    expect(conn).toMatchObject({ provider: "gitea", base_url: gitea.url, status: "active" });
    expect(out).toContain(`created ${conn.id} (gitea at ${gitea.url})`);
    expect(out).toContain(`events URL (the provider's webhook target): ${conn.events_url}`);
    expect(out).toMatch(/connected acme\/payments as repo_/);
    expect(out).toMatch(
      new RegExp(`${conn.id}\\s+gitea\\s+${gitea.url.replace(/\./g, "\\.")}\\s+active\\s.*\\bnever$`, "m"),
    );
    expect((await umbrella.get("/v1/repositories")).body.repositories).toEqual([
      expect.objectContaining({ name: "acme/payments", provider: "gitea", default_branch: "main" }),
    ]);

    // The secret printed once is the connection's: a delivery signed with it is accepted.
    const secret = /webhook secret \(shown once[^:]*\): ([0-9a-f]{48})$/m.exec(out)![1]!;
    const ping = Buffer.from("{}");
    const signedWith = (key: string) =>
      fetch(conn.events_url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-gitea-event": "ping",
          "x-gitea-delivery": `cli-${key.slice(0, 6)}`,
          "x-gitea-signature": createHmac("sha256", key).update(ping).digest("hex"),
        },
        body: new Uint8Array(ping),
      });
    expect((await signedWith(secret)).status).toBe(202);
    expect((await signedWith("not-the-secret-at-all")).status).toBe(401);

    // A token Gitea refuses: one line naming the code, exit 2, nothing kept.
    const bad = await runCli(
      ["connections", "create", "--provider", "gitea", "--base-url", gitea.url, "--token-stdin"],
      { env, input: `${"0".repeat(40)}\n` },
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/PROVIDER_UNAUTHORIZED/);

    const deleted = await runCli(["connections", "delete", conn.id, "--json"], { env });
    expect({ code: deleted.code, out: JSON.parse(deleted.stdout) }).toEqual({ code: 0, out: { deleted: conn.id } });
    const listed = await runCli(["connections", "list", "--json"], { env });
    expect(JSON.parse(listed.stdout)).toEqual({ connections: [] });
  });
});

describe("the events route", () => {
  const body = Buffer.from(JSON.stringify({ action: "opened" }));
  const sign = (secret: string, b: Buffer) => createHmac("sha256", secret).update(b).digest("hex");
  const post = (b: Buffer, headers: Record<string, string>, connectionId = connection.id) =>
    fetch(`${v.url}/v1/integrations/gitea/events?connection=${connectionId}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-gitea-event": "pull_request", ...headers },
      body: new Uint8Array(b),
    });

  it("refuses a forged signature, an unknown connection and an oversized body; a replay is a duplicate", async () => {
    const forged = await post(body, {
      "x-gitea-signature": sign("not-the-secret-at-all", body),
      "x-gitea-delivery": "d1",
    });
    expect(forged.status).toBe(401);
    expect(await forged.json()).toMatchObject({ code: "INVALID_SIGNATURE" });
    const unknown = await post(
      body,
      { "x-gitea-signature": sign(SECRET, body), "x-gitea-delivery": "d1" },
      "conn_01jd0000000000000000000000",
    );
    expect(unknown.status).toBe(401);
    const big = Buffer.alloc(2 * 1024 * 1024, 0x20);
    const oversized = await post(big, { "x-gitea-signature": sign(SECRET, big), "x-gitea-delivery": "d2" });
    expect(oversized.status).toBe(413);
    // Signed but malformed: 400, never a 500.
    const malformed = await post(body, { "x-gitea-signature": sign(SECRET, body), "x-gitea-delivery": "d3" });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ code: "INVALID_PAYLOAD" });

    // A delivery sent again (same delivery id): answered, not queued twice.
    const repo = await gitea.api<{ id: number }>("GET", "/repos/acme/payments");
    const sha = (await checkout.git("rev-parse", "HEAD")).trim();
    const event = Buffer.from(
      JSON.stringify({
        action: "closed",
        number: 1,
        pull_request: { number: 1, head: { sha, repo_id: repo.id }, base: { sha, repo_id: repo.id } },
        repository: { id: repo.id, name: "payments", owner: { login: "acme" } },
      }),
    );
    const headers = { "x-gitea-signature": sign(SECRET, event), "x-gitea-delivery": "replayed-1" };
    const first = await post(event, headers);
    expect(first.status).toBe(202);
    expect(await first.json()).toEqual({ outcome: "accepted", delivery_id: "replayed-1" });
    const again = await post(event, headers);
    expect(again.status).toBe(202);
    expect(await again.json()).toEqual({ outcome: "duplicate", delivery_id: "replayed-1" });
  });
});

describe("provider faults", () => {
  // Initech's connection reaches the real Gitea through a proxy that answers chosen calls with
  // Gitea's faults (a rate limit with Retry-After, an outage); its own token, revoked at the end.
  const secret = "initech-webhook-secret-0123456789";
  const reviews = /^\/api\/v1\/repos\/initech\/billing\/pulls\/\d+\/reviews$/;
  let proxy: FaultProxy;
  let initech: Api;
  let work: Checkout;

  beforeAll(async () => {
    proxy = await startFaultProxy(gitea.url);
    const created = await api.post("/v1/organizations", { name: "Initech", plan: "team" });
    initech = api.withKey(created.body.api_key.key);
    const conn = await initech.post("/v1/integrations/connections", {
      provider: "gitea",
      base_url: proxy.url,
      token: await gitea.createToken("verdict-initech"),
      webhook_secret: secret,
    });
    expect(conn.status).toBe(201);
    await gitea.createOrg("initech");
    await gitea.createRepo("initech", "billing");
    await gitea.addOrgWebhook("initech", conn.body.events_url, secret);
    expect((await initech.post("/v1/repositories", { provider: "gitea", name: "initech/billing" })).status).toBe(201);
  });

  afterAll(async () => {
    await proxy?.stop();
  });

  it("retries a rate limit after its Retry-After, shows an outage as pending, retrying, then reports", async () => {
    // Four failures use up the in-process retries of the first attempt: the check is
    // rescheduled through the bus and its next attempt posts the review.
    proxy.fail("POST", reviews, [
      { status: 429, headers: { "retry-after": "1" } },
      { status: 503 },
      { status: 503 },
      { status: 503 },
    ]);
    work = await gitea.clone("initech", "billing");
    await work.git("checkout", "--quiet", "-b", "feature/invoice");
    const head = await work.commit({ "src/invoice.js": `const key = "${AWS_KEY}";\n` }, "invoice key");
    await work.git("push", "--quiet", "origin", "feature/invoice");
    const pr = await gitea.openPullRequest("initech", "billing", "feature/invoice", "main", "Invoices");

    const status = await verdictStatus(head, "initech/billing");
    expect(status.status).toBe("failure");
    const posted = proxy.seen("POST", reviews);
    expect(posted.map((r) => r.status)).toEqual([429, 503, 503, 503, 200]);
    // The rate limit's Retry-After was waited out before the next call.
    expect(posted[1]!.at - posted[0]!.at).toBeGreaterThanOrEqual(1000);
    // Gitea keeps every status a commit had: "pending, retrying" was shown meanwhile.
    const history = await gitea.api<{ status: string; context: string; description: string }[]>(
      "GET",
      `/repos/initech/billing/statuses/${head}?limit=50`,
    );
    expect(history).toContainEqual(
      expect.objectContaining({
        context: "verdict",
        status: "pending",
        description: "Verdict: pending, retrying (the provider is unavailable)",
      }),
    );
    expect((await reviewComments(pr.number, "initech/billing")).comments).toEqual([
      expect.objectContaining({ path: "src/invoice.js", position: 1 }),
    ]);
    // The retry posted the evaluation made by the first attempt: one evaluation of the commit.
    const evaluations = (await initech.get("/v1/evaluations")).body.evaluations;
    expect(evaluations).toEqual([expect.objectContaining({ repository: "initech/billing", ref: head })]);
    const health = (await initech.get("/v1/integrations/connections")).body.connections[0];
    expect(health).toMatchObject({ status: "active", last_error: expect.stringMatching(/^Gitea answered 503/) });
  });

  it("marks the connection broken when its token is revoked in Gitea", async () => {
    await gitea.deleteToken("verdict-initech");
    await work.commit({ "src/invoice.js": "const key = process.env.KEY;\n" }, "key from the environment");
    await work.git("push", "--quiet", "origin", "feature/invoice");
    const deadline = Date.now() + 60_000;
    let health;
    for (;;) {
      health = (await initech.get("/v1/integrations/connections")).body.connections[0];
      if (health.status === "broken") break;
      if (Date.now() > deadline) throw new Error(`not broken: ${JSON.stringify(health)}\n${v.output().slice(-3000)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(health.last_error).toMatch(/^Gitea answered 401/);
    expect(health.last_error_at).not.toBeNull();
  });
});

describe("a connection's token replaced", () => {
  it("is streamed to audit.recorded subscribers as a disconnection and a connection, never a token", async () => {
    const r = await startReceiver();
    try {
      r.secret = `whsec_${Buffer.alloc(32, 3).toString("base64")}`;
      const hook = await api.post("/v1/webhooks", { url: r.url, events: ["audit.recorded"], secret: r.secret });
      expect(hook.status).toBe(201);
      const token = await gitea.createToken("verdict-rotated");
      const replaced = await api.post("/v1/integrations/connections", {
        provider: "gitea",
        base_url: gitea.url,
        token,
        webhook_secret: SECRET,
      });
      expect(replaced.status).toBe(201);
      expect((await api.delete(`/v1/integrations/connections/${connection.id}`)).status).toBe(204);
      // In chain order (two messages may be on their way at once).
      const audited = () =>
        r.received.filter((m) => m.json.event === "audit.recorded").sort((a, b) => a.json.data.seq - b.json.data.seq);
      for (let i = 0; i < 120 && audited().length < 3; i++) await new Promise((res) => setTimeout(res, 250));
      expect(audited().map((m) => [m.json.data.type, m.json.data.target_id, m.verified])).toEqual([
        ["webhook.created", hook.body.id, true],
        ["integration.connected", replaced.body.id, true],
        ["integration.disconnected", connection.id, true],
      ]);
      expect(audited()[1]!.json.data.data.changes).toEqual({
        provider: { before: null, after: "gitea" },
        base_url: { before: null, after: gitea.url },
      });
      const bodies = r.received.map((m) => m.body).join("\n");
      for (const secret of [token, gitea.admin.token, SECRET]) expect(bodies).not.toContain(secret);
    } finally {
      await r.close();
    }
  });
});
