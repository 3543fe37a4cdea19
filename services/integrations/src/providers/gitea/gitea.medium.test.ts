// The Gitea provider against a real Gitea (scripts/install-gitea.sh, test/support/gitea.ts):
// what it reads of a pull request pushed with the real git, what it posts back, and the webhook
// deliveries Gitea itself signs.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { startGitea, type Gitea } from "../../../../../test/support/gitea.js";
import { ProviderError, type ChangeRef } from "../../domain/provider.js";
import { GiteaClient } from "./client.js";
import { GiteaInbound } from "./inbound.js";

let gitea: Gitea;
let client: GiteaClient;
let receiver: Server;
const deliveries: { headers: Record<string, string | undefined>; body: Buffer }[] = [];
const SECRET = "whsec-gitea-medium-test";
const repo = { owner: "acme", name: "payments" };
let change: ChangeRef;
let repoId: number;

beforeAll(async () => {
  gitea = await startGitea();
  client = new GiteaClient({ baseUrl: gitea.url, token: gitea.admin.token });
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      deliveries.push({ headers: req.headers as Record<string, string | undefined>, body: Buffer.concat(chunks) });
      res.writeHead(202).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
  await gitea.createOrg(repo.owner);
  repoId = (await gitea.createRepo(repo.owner, repo.name)).id;
  await gitea.addOrgWebhook(repo.owner, `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`, SECRET);
  const checkout = await gitea.clone(repo.owner, repo.name);
  await checkout.git("checkout", "--quiet", "-b", "feature");
  const headSha = await checkout.commit(
    {
      "src/config.ts": 'export const region = "eu";\nexport const key = "AKIA0000000000000000";\n',
      "README.md": "# payments\nmore\n",
    },
    "add config",
  );
  await checkout.git("push", "--quiet", "origin", "feature");
  const pr = await gitea.openPullRequest(repo.owner, repo.name, "feature", "main", "Add config");
  change = { repo, headSha, pullNumber: pr.number };
}, 600_000);

afterAll(async () => {
  receiver?.closeAllConnections();
  await new Promise<void>((r) => receiver?.close(() => r()));
  await gitea?.stop();
});

describe("GiteaClient", () => {
  it("reads a repository: its stable id and default branch; a missing one is not_found, a bad token unauthorized", async () => {
    await expect(client.getRepository(repo)).resolves.toEqual({
      providerRepoId: String(repoId),
      fullName: "acme/payments",
      defaultBranch: "main",
      private: true,
    });
    await expect(client.getRepository({ owner: "acme", name: "nope" })).rejects.toMatchObject({ code: "not_found" });
    const bad = new GiteaClient({ baseUrl: gitea.url, token: "0".repeat(40) });
    const err = await bad.getRepository(repo).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ code: "unauthorized", status: 401 });
  });

  it("lists the pull request's changed files with the lines the change added, and reads them at the head", async () => {
    const files = await client.listChangedFiles(change);
    expect(files.sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { path: "README.md", status: "modified", addedLines: [2] },
      { path: "src/config.ts", status: "added", addedLines: [1, 2] },
    ]);
    const content = await client.getFileContent(repo, "src/config.ts", change.headSha);
    expect(Buffer.from(content!).toString()).toContain("AKIA0000000000000000");
    await expect(client.getFileContent(repo, "src/config.ts", "main")).resolves.toBeNull();
  });

  it("posts a pending status, then the result with one review of line comments, replaced rather than added on the next report", async () => {
    // The combined status holds the latest status of each context.
    const statuses = async () =>
      (
        await gitea.api<{ statuses: { status: string; context: string; description: string }[] }>(
          "GET",
          `/repos/acme/payments/commits/${change.headSha}/status`,
        )
      ).statuses;
    const handle = await client.startReport(change, "verdict");
    expect((await statuses())[0]).toMatchObject({ status: "pending", context: "verdict" });
    const annotation = {
      path: "src/config.ts",
      line: 2,
      level: "failure" as const,
      title: "AWS access key",
      message: "AKIA…: a secret in source",
      fingerprint: "fp1",
    };
    await client.completeReport(change, handle, {
      state: "failure",
      title: "1 violation",
      summary: "secrets: 1",
      annotations: [annotation],
    });
    expect((await statuses())[0]).toMatchObject({ status: "failure", context: "verdict", description: "1 violation" });
    const verdictReviews = async () => {
      const reviews = await gitea.api<{ id: number; body: string; comments_count: number }[]>(
        "GET",
        `/repos/acme/payments/pulls/${change.pullNumber}/reviews`,
      );
      return reviews.filter((r) => r.body.includes("verdict:verdict"));
    };
    let reviews = await verdictReviews();
    expect(reviews).toHaveLength(1);
    const comments = await gitea.api<{ path: string; position: number; body: string }[]>(
      "GET",
      `/repos/acme/payments/pulls/${change.pullNumber}/reviews/${reviews[0]!.id}/comments`,
    );
    expect(comments).toEqual([expect.objectContaining({ path: "src/config.ts", position: 2 })]);
    expect(comments[0]!.body).toContain("AWS access key");

    await client.completeReport(change, handle, {
      state: "failure",
      title: "2 violations",
      summary: "secrets: 2",
      annotations: [annotation, { ...annotation, line: 1, fingerprint: "fp2" }],
    });
    reviews = await verdictReviews();
    expect(reviews).toHaveLength(1);
    expect(reviews[0]!.comments_count).toBe(2);

    // A pass clears the comments and flips the status.
    await client.completeReport(change, handle, { state: "success", title: "passed", summary: "", annotations: [] });
    expect(await verdictReviews()).toHaveLength(0);
    expect((await statuses())[0]).toMatchObject({ status: "success" });
  });
});

describe("GiteaInbound on Gitea's own deliveries", () => {
  const inbound = new GiteaInbound();
  // Gitea delivers from a queue: neither the moment nor the order of the push and pull request
  // deliveries is fixed, so each is waited for.
  const delivery = async (event: string) => {
    for (let i = 0; i < 200; i++) {
      const d = deliveries.find((x) => x.headers["x-gitea-event"] === event);
      if (d) return d;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no ${event} delivery; got ${deliveries.map((d) => d.headers["x-gitea-event"]).join(", ")}`);
  };
  const prDelivery = () => delivery("pull_request");

  it("verifies the signature of the raw body, and refuses another secret, an altered body and a missing signature", async () => {
    const d = await prDelivery();
    await expect(inbound.verify(d.headers, d.body, SECRET)).resolves.toBe(true);
    await expect(inbound.verify(d.headers, d.body, "another-secret")).resolves.toBe(false);
    const altered = Buffer.from(d.body.toString().replace('"opened"', '"closed"'));
    expect(altered.equals(d.body)).toBe(false);
    await expect(inbound.verify(d.headers, altered, SECRET)).resolves.toBe(false);
    await expect(inbound.verify({ ...d.headers, "x-gitea-signature": undefined }, d.body, SECRET)).resolves.toBe(false);
    await expect(inbound.verify({ ...d.headers, "x-gitea-signature": "zz" }, d.body, SECRET)).resolves.toBe(false);
  });

  it("reads the pull request event: repository id, head and base commits, not from a fork", async () => {
    const d = await prDelivery();
    expect(inbound.parse(d.headers, d.body)).toEqual({
      kind: "pull_request",
      action: "opened",
      deliveryId: d.headers["x-gitea-delivery"],
      repo,
      providerRepoId: String(repoId),
      pullNumber: change.pullNumber,
      headSha: change.headSha,
      baseSha: expect.stringMatching(/^[0-9a-f]{40}$/),
      fromFork: false,
    });
    const push = await delivery("push");
    expect(inbound.parse(push.headers, push.body)).toMatchObject({
      kind: "push",
      ref: "refs/heads/feature",
      after: change.headSha,
    });
  });

  it("refuses a malformed payload with ProviderError invalid", () => {
    const headers = { "x-gitea-delivery": "d1", "x-gitea-event": "pull_request" };
    for (const body of ["not json", "[]", "{}", JSON.stringify({ action: "opened", pull_request: { head: {} } })]) {
      expect(() => inbound.parse(headers, Buffer.from(body))).toThrow(ProviderError);
    }
    expect(() => inbound.parse({ "x-gitea-event": "push" }, Buffer.from("{}"))).toThrow(/X-Gitea-Delivery/);
    expect(inbound.parse({ ...headers, "x-gitea-event": "issues" }, Buffer.from("{}"))).toMatchObject({
      kind: "ignored",
    });
  });
});

describe("GiteaClient on a push", () => {
  it("lists a push's files net of its commits, a new branch's head commit, and a force-push's rewritten commits", async () => {
    const main = await gitea.clone(repo.owner, repo.name);
    const before = (await main.git("rev-parse", "HEAD")).trim();
    await main.commit({ "a.js": "one\n", "tmp.txt": "scratch\n", "README.md": "# payments\nchanged\n" }, "c1");
    const head = await main.commit({ "a.js": "one\ntwo\n", "tmp.txt": null }, "c2");
    await main.git("push", "--quiet", "origin", "main");
    const byPath = (files: { path: string }[]) => [...files].sort((a, b) => (a.path < b.path ? -1 : 1));

    expect(byPath(await client.listChangedFiles({ repo, headSha: head, baseSha: before }))).toEqual([
      { path: "README.md", status: "modified" },
      { path: "a.js", status: "added" },
      { path: "tmp.txt", status: "removed" },
    ]);
    // A push that created the branch (before is all zeros), or whose before Gitea no longer has:
    // the head commit's own files.
    const headOnly = [
      { path: "a.js", status: "modified" },
      { path: "tmp.txt", status: "removed" },
    ];
    expect(byPath(await client.listChangedFiles({ repo, headSha: head, baseSha: "0".repeat(40) }))).toEqual(headOnly);
    expect(byPath(await client.listChangedFiles({ repo, headSha: head, baseSha: "f".repeat(40) }))).toEqual(headOnly);

    // A force-push over both commits: only what the rewritten branch has since the merge base.
    await main.git("reset", "--quiet", "--hard", before);
    const forced = await main.commit({ "b.js": "three\n" }, "c3");
    await main.git("push", "--quiet", "--force", "origin", "main");
    expect(await client.listChangedFiles({ repo, headSha: forced, baseSha: head })).toEqual([
      { path: "b.js", status: "added" },
    ]);
  });
});
