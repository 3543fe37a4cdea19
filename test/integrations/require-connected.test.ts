// An organization that requires connected repositories (settings.require_connected_repository),
// over real HTTP against the real all-in-one process and a real Gitea: off by default, any
// repository is evaluated; on, an evaluation (synchronous, queued, through the CLI) of a
// repository not connected through a provider connection is refused with 422
// REPOSITORY_NOT_CONNECTED naming the field, and accepted once the repository is connected
// through Gitea; another organization's connected repository does not count, and Verdict's own
// check of a pull request on the connected repository keeps working.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Api, expectError } from "../support/api.js";
import { auditEventMatching } from "../support/audit.js";
import { isolatedHome, runCli, runDocBlock } from "../support/cli.js";
import { startGitea, type Gitea } from "../support/gitea.js";
import { ROOT, startVerdict, type Verdict } from "../support/server.js";

const SECRET = "gitea-webhook-secret-require-0123";
const AWS_KEY = "AKIAZ7VQ3X4M2N8P5R6T";

let gitea: Gitea;
let v: Verdict;
let api: Api;

function evaluate(client: Api, repository: string, files = 1) {
  return client.post("/v1/evaluations", {
    repository,
    ref: "main",
    files: Array.from({ length: files }, (_, i) => ({ path: `src/f${i}.js`, content: "const a = 1;\n" })),
  });
}

function expectNotConnected(res: Awaited<ReturnType<typeof evaluate>>, name: string) {
  expectError(res, 422, "validation_error", "REPOSITORY_NOT_CONNECTED");
  expect(res.body.details).toEqual({ field: "repository" });
  expect(res.body.message).toContain(`'${name}' is not one`);
  expect(res.body.message).toContain("POST /v1/repositories");
}

beforeAll(async () => {
  // Two files or more are queued: the asynchronous path is checked with small requests.
  [gitea, v] = await Promise.all([
    startGitea(),
    startVerdict({ env: { VERDICT_ASYNC_MIN_FILES: "2", VERDICT_INTEGRATIONS_ALLOW_PRIVATE: "true" } }),
  ]);
  api = new Api(v.url, v.bootstrapKey);
  await gitea.createOrg("acme");
  await gitea.createRepo("acme", "payments");
}, 300_000);

afterAll(async () => {
  await v?.destroy();
  await gitea?.stop();
});

describe("require_connected_repository", () => {
  it("is off by default: any repository is evaluated", async () => {
    expect((await api.get("/v1/organization")).body.settings.require_connected_repository).toBe(false);
    const res = await evaluate(api, "acme/anything");
    expect(res.status).toBe(201);
    expect(res.body.status).toBe("completed");
  });

  it("on (through the CLI), refuses a repository not connected through a provider, synchronous or queued", async () => {
    const env = { ...isolatedHome(), VERDICT_URL: v.url, VERDICT_API_KEY: v.bootstrapKey };
    // The command of docs/integrations/gitea.md, as written.
    const doc = readFileSync(join(ROOT, "docs/integrations/gitea.md"), "utf8");
    const section = doc.slice(doc.indexOf("## Requiring connected repositories"));
    const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
    expect(runDocBlock(block, { env })).toContain("require_connected_repository=true");
    // A repository stored by name alone (no provider connection) does not count.
    expect((await api.post("/v1/repositories", { provider: "generic", name: "acme/legacy" })).status).toBe(201);
    const before = (await api.get("/v1/evaluations")).body.evaluations.length;
    for (const name of ["acme/payments", "acme/legacy"]) {
      expectNotConnected(await evaluate(api, name), name);
      expectNotConnected(await evaluate(api, name, 3), name);
    }
    // `verdict evaluate` says why, and fails.
    const dir = mkdtempSync(join(tmpdir(), "verdict-require-"));
    writeFileSync(join(dir, "app.js"), "const a = 1;\n");
    const cli = await runCli(["evaluate", "--repository", "acme/payments", "--ref", "main", "app.js"], {
      env,
      cwd: dir,
    });
    expect(cli.code).not.toBe(0);
    expect(cli.stderr).toContain("'acme/payments' is not one");
    // Nothing was stored or queued.
    expect((await api.get("/v1/evaluations")).body.evaluations).toHaveLength(before);
    // The audit log has the change like every other setting.
    const audited = await auditEventMatching(
      api,
      (e) => e.type === "organization.updated" && !!e.data.changes?.["settings.require_connected_repository"],
    );
    expect(audited.data.changes!["settings.require_connected_repository"]).toEqual({ before: false, after: true });
  });

  it("accepts a repository once it is connected through Gitea, and Verdict's own pull-request checks keep working", async () => {
    const conn = await api.post("/v1/integrations/connections", {
      provider: "gitea",
      base_url: gitea.url,
      token: gitea.admin.token,
      webhook_secret: SECRET,
    });
    expect(conn.status).toBe(201);
    await gitea.addOrgWebhook("acme", conn.body.events_url, SECRET);
    expect((await api.post("/v1/repositories", { provider: "gitea", name: "acme/payments" })).status).toBe(201);
    const sync = await evaluate(api, "acme/payments");
    expect(sync.status).toBe(201);
    expect(sync.body.status).toBe("completed");
    expect((await evaluate(api, "Acme/Payments", 3)).status).toBe(202);

    // A pull request that leaks a key: Gitea's webhook, Verdict's check, the failing status.
    const checkout = await gitea.clone("acme", "payments");
    await checkout.git("checkout", "--quiet", "-b", "feature/key");
    const head = await checkout.commit({ "src/key.js": `const k = "${AWS_KEY}";\n` }, "add key");
    await checkout.git("push", "--quiet", "origin", "feature/key");
    await gitea.openPullRequest("acme", "payments", "feature/key", "main", "Add key");
    const deadline = Date.now() + 60_000;
    let state = "";
    while (Date.now() < deadline) {
      const combined = await gitea.api<{ statuses: { context: string; status: string }[] | null }>(
        "GET",
        `/repos/acme/payments/commits/${head}/status`,
      );
      state = (combined.statuses ?? []).find((s) => s.context === "verdict")?.status ?? "";
      if (state && state !== "pending") break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(state).toBe("failure");
    const checked = await api.get("/v1/evaluations", { query: { repository: "acme/payments" } });
    expect(checked.body.evaluations).toContainEqual(expect.objectContaining({ ref: head, passed: false }));
  });

  it("does not count another organization's connected repository", async () => {
    const created = await api.post("/v1/organizations", { name: "Globex", plan: "team" });
    const b = api.withKey(created.body.api_key.key);
    expect(
      (await b.patch("/v1/organization", { settings: { require_connected_repository: true } })).body.settings,
    ).toMatchObject({ require_connected_repository: true });
    expectNotConnected(await evaluate(b, "acme/payments"), "acme/payments");
    // Turned off again, the repository is evaluated as before.
    await b.patch("/v1/organization", { settings: { require_connected_repository: false } });
    expect((await evaluate(b, "acme/payments")).status).toBe(201);
  });
});
