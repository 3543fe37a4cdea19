// Fault: every service of the distributed stack is killed (SIGKILL, no draining) and restarted on
// its port, one after another, during a stream of 50 pull-request events from a real Gitea
// (scripts/install-gitea.sh). The test is the provider: it sends each delivery signed as Gitea signs
// it and sends it again, with the same delivery id, until it is answered 202 (a provider's
// redelivery; Gitea itself does not retry). Afterwards every pull request has exactly one outcome:
// Verdict's final status on its head, exactly one Verdict review with the comment on the line where
// the change leaks a key (none where it passes), and exactly one evaluation of its head. Nothing
// lost, nothing twice. Before the re-drive of unprocessed deliveries (processChange.ts), 38 of the
// 50 never got a status: the in-process bus lost what a killed integrations process held, and
// what failed while policy, identity or evaluation were down went past the bus's retries.
import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Api } from "../support/api.js";
import { startGitea, type Gitea } from "../support/gitea.js";
import { makeKey } from "../support/keys.js";
import { startStack, stopStack, type ServiceName, type Stack } from "../support/stack.js";
import { sleep, until } from "./support.js";

const EVENTS = 50;
const SECRET = "fault-webhook-secret-0123456789";
const REPO = "acme/shop";
/** Killed in turn during the stream, one every KILL_EVERY events. */
const KILLED: ServiceName[] = ["integrations", "evaluation", "policy", "identity", "gateway"];
const KILL_EVERY = 8;

let gitea: Gitea;
let stack: Stack;
let dataDir: string;
let api: Api;
let eventsUrl: string;
let repoId: number;
const pulls: { number: number; head: string; base: string; leaks: boolean }[] = [];

const keyOf = (n: number) => `AKIAZ7VQ3X4M2N8P${String(n).padStart(4, "0")}`;
const gatewayUrl = () => `http://127.0.0.1:${stack.services.gateway.ready.http_port}`;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "verdict-fault-pr-"));
  const bootstrapKey = makeKey();
  [gitea, stack] = await Promise.all([
    startGitea(),
    startStack(dataDir, { VERDICT_BOOTSTRAP_API_KEY: bootstrapKey, VERDICT_INTEGRATIONS_ALLOW_PRIVATE: "true" }),
  ]);
  api = new Api(gatewayUrl(), bootstrapKey);
  await gitea.createOrg("acme");
  const repo = await gitea.createRepo("acme", "shop");
  repoId = repo.id;
  const conn = await api.post("/v1/integrations/connections", {
    provider: "gitea",
    base_url: gitea.url,
    token: gitea.admin.token,
    webhook_secret: SECRET,
  });
  expect(conn.status).toBe(201);
  eventsUrl = conn.body.events_url;
  expect((await api.post("/v1/repositories", { provider: "gitea", name: REPO })).status).toBe(201);

  // 50 pull requests, one commit each; every other one leaks a key on line 2.
  const checkout = await gitea.clone("acme", "shop");
  const base = (await checkout.git("rev-parse", "HEAD")).trim();
  const branches: string[] = [];
  for (let n = 0; n < EVENTS; n++) {
    const leaks = n % 2 === 0;
    await checkout.git("checkout", "--quiet", "-B", `pr-${n}`, base);
    const head = await checkout.commit(
      {
        [`src/change${n}.js`]: `const region = "eu-west-${n}";\nconst key = ${leaks ? `"${keyOf(n)}"` : "process.env.KEY"};\n`,
      },
      `change ${n}`,
    );
    branches.push(`pr-${n}`);
    pulls.push({ number: 0, head, base, leaks });
  }
  await checkout.git("push", "--quiet", "origin", ...branches);
  for (let n = 0; n < EVENTS; n++)
    pulls[n]!.number = (await gitea.openPullRequest("acme", "shop", `pr-${n}`, "main", `Change ${n}`)).number;
}, 300_000);

afterAll(async () => {
  if (stack) await stopStack(stack);
  await gitea?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}, 120_000);

/** Gitea's pull_request event for pull n, signed with the connection's secret. */
function delivery(n: number): { body: Buffer; headers: Record<string, string> } {
  const p = pulls[n]!;
  const body = Buffer.from(
    JSON.stringify({
      action: "opened",
      number: p.number,
      pull_request: {
        number: p.number,
        head: { sha: p.head, repo_id: repoId },
        base: { sha: p.base, repo_id: repoId },
      },
      repository: { id: repoId, name: "shop", full_name: REPO, owner: { login: "acme" } },
    }),
  );
  return {
    body,
    headers: {
      "content-type": "application/json",
      "x-gitea-event": "pull_request",
      "x-gitea-delivery": `fault-pr-${n}`,
      "x-gitea-signature": createHmac("sha256", SECRET).update(body).digest("hex"),
    },
  };
}

/** Sends delivery n until it is answered 202 (the gateway may be down); answers the tries it took. */
async function deliver(n: number): Promise<number> {
  const { body, headers } = delivery(n);
  // The events URL names the gateway's port, which a restart keeps.
  for (let tries = 1; ; tries++) {
    const res = await fetch(eventsUrl, { method: "POST", headers, body: new Uint8Array(body) }).catch(() => null);
    if (res?.status === 202) return tries;
    if (tries > 600) throw new Error(`delivery ${n} never accepted (last: ${res?.status} ${await res?.text()})`);
    await sleep(100);
  }
}

/** SIGKILL one service, then a new process of it on the same port. */
async function killAndRestart(name: ServiceName): Promise<void> {
  const old = stack.services[name];
  const port: Record<string, string> =
    name === "gateway"
      ? { VERDICT_HTTP_PORT: String(old.ready.http_port) }
      : { VERDICT_GRPC_PORT: String(old.ready.grpc_port) };
  expect(await old.stop("SIGKILL")).toBeNull();
  stack.services[name] = await stack.start(name, port);
}

interface Status {
  status: string;
  context: string;
}

describe("a stream of pull-request events while each service is killed and restarted", () => {
  it("gives every pull request exactly one check: one final status, one review where it leaks, one evaluation", async () => {
    const restarts: Promise<void>[] = [];
    for (let n = 0; n < EVENTS; n++) {
      const k = n / KILL_EVERY - 1;
      if (Number.isInteger(k) && k >= 0 && k < KILLED.length) restarts.push(killAndRestart(KILLED[k]!));
      await deliver(n);
      await sleep(150);
    }
    await Promise.all(restarts);
    // The provider redelivers every event once more: each is a duplicate, nothing runs again.
    for (let n = 0; n < EVENTS; n++) await deliver(n);

    const final = new Map<number, Status>();
    await until(
      "a final Verdict status on every pull request's head",
      async () => {
        for (let n = 0; n < EVENTS; n++) {
          if (final.has(n)) continue;
          const combined = await gitea.api<{ statuses: Status[] | null }>(
            "GET",
            `/repos/${REPO}/commits/${pulls[n]!.head}/status`,
          );
          const s = (combined.statuses ?? []).find((x) => x.context === "verdict" && x.status !== "pending");
          if (s) final.set(n, s);
        }
        return final.size === EVENTS;
      },
      300_000,
    ).catch((err: Error) => {
      const missing = pulls.flatMap((p, n) => (final.has(n) ? [] : [n]));
      const logs = stack.all.map((p) => `--- ${p.name} ${p.ready.pid}\n${p.output().slice(-3000)}`).join("\n");
      throw new Error(`${err.message}; no final status for events ${missing.join(", ")}\n${logs}`);
    });
    // Settle: a duplicate still running would post within this time.
    await sleep(3_000);

    const evaluations: { ref: string }[] = [];
    for (let cursor: string | undefined; ;) {
      const page = await api.get("/v1/evaluations", {
        query: { repository: REPO, limit: 100, ...(cursor ? { cursor } : {}) },
      });
      evaluations.push(...page.body.evaluations);
      if (!page.body.pagination?.has_more) break;
      cursor = page.body.pagination.next_cursor;
    }
    const problems: string[] = [];
    for (let n = 0; n < EVENTS; n++) {
      const p = pulls[n]!;
      const want = p.leaks ? "failure" : "success";
      if (final.get(n)!.status !== want) problems.push(`#${n}: status ${final.get(n)!.status}, want ${want}`);
      const reviews = (
        await gitea.api<{ id: number; body: string }[]>("GET", `/repos/${REPO}/pulls/${p.number}/reviews`)
      ).filter((r) => r.body.includes("verdict:verdict"));
      // A change that passes gets no review; one that leaks gets one, never two.
      if (reviews.length !== (p.leaks ? 1 : 0)) problems.push(`#${n}: ${reviews.length} Verdict reviews`);
      for (const r of reviews) {
        const comments = await gitea.api<{ path: string; position: number }[]>(
          "GET",
          `/repos/${REPO}/pulls/${p.number}/reviews/${r.id}/comments`,
        );
        const want = [`src/change${n}.js:2`];
        const got = comments.map((c) => `${c.path}:${c.position}`);
        if (JSON.stringify(got) !== JSON.stringify(want)) problems.push(`#${n}: comments ${got.join(", ")}`);
      }
      const evals = evaluations.filter((e) => e.ref === p.head).length;
      if (evals !== 1) problems.push(`#${n}: ${evals} evaluations of its head`);
    }
    expect(problems).toEqual([]);
    expect(evaluations).toHaveLength(EVENTS);
  }, 900_000);
});
