import { describe, expect, it } from "@jest/globals";
import { githubDelivery, recordedEvents } from "../../../test/support/githubEvents.js";
import { ProviderError } from "../../domain/provider.js";
import { GITHUB_MAX_PAYLOAD_BYTES, GitHubInboundVerifier } from "./inbound.js";

const SECRET = "whsec-for-the-github-app";
const verifier = new GitHubInboundVerifier();

function signed(name: string, payload: unknown, secret = SECRET) {
  return githubDelivery(name, JSON.stringify(payload), secret);
}

describe("GitHubInboundVerifier on GitHub's recorded deliveries", () => {
  const recorded = recordedEvents("pull_request", "push", "check_run", "check_suite", "ping");

  it("accepts every recorded delivery signed with the secret, and reads it", async () => {
    expect(recorded.length).toBeGreaterThan(50);
    for (const { name, payload } of recorded) {
      const { headers, body } = signed(name, payload);
      expect(await verifier.verify(headers, body, SECRET)).toBe(true);
      const event = verifier.parse(headers, body);
      expect(event.deliveryId).toBe(headers["x-github-delivery"]);
      if (name === "ping") expect(event.kind).toBe("ping");
      if (name === "push") expect(event.kind).toBe(payload.deleted ? "ignored" : "push");
      if (name === "pull_request") expect(event.kind).toBe("pull_request");
    }
  });

  it("reads a pull request's repository, head and base, number, action and installation", () => {
    const actions = new Map<string, string>();
    for (const { payload } of recordedEvents("pull_request")) {
      const pr = payload as unknown as {
        number: number;
        action: string;
        repository: { id: number; name: string; owner: { login: string } };
        installation?: { id: number };
        pull_request: { head: { sha: string }; base: { sha: string } };
      };
      const { headers, body } = signed("pull_request", payload);
      const event = verifier.parse(headers, body);
      if (event.kind !== "pull_request") throw new Error(`read as ${event.kind}`);
      expect(event).toMatchObject({
        repo: { owner: pr.repository.owner.login, name: pr.repository.name },
        providerRepoId: String(pr.repository.id),
        pullNumber: pr.number,
        headSha: pr.pull_request.head.sha,
        baseSha: pr.pull_request.base.sha,
        fromFork: false,
      });
      expect(event.installationId).toBe(pr.installation === undefined ? undefined : String(pr.installation.id));
      actions.set(pr.action, event.action);
    }
    expect(Object.fromEntries(actions)).toMatchObject({
      opened: "opened",
      synchronize: "synchronize",
      reopened: "reopened",
      closed: "closed",
      labeled: "other",
    });
  });

  it("reads a push's ref, before, after and forced", () => {
    for (const { payload } of recordedEvents("push")) {
      const push = payload as unknown as {
        ref: string;
        before: string;
        after: string;
        forced: boolean;
        deleted: boolean;
      };
      const { headers, body } = signed("push", payload);
      const event = verifier.parse(headers, body);
      if (push.deleted) {
        expect(event.kind).toBe("ignored");
        continue;
      }
      expect(event).toMatchObject({
        kind: "push",
        ref: push.ref,
        before: push.before,
        after: push.after,
        forced: push.forced,
      });
    }
  });

  it('reads "Re-run" (check_run and check_suite rerequested) and ignores their other actions', () => {
    const kinds: string[] = [];
    for (const { name, payload } of recordedEvents("check_run", "check_suite")) {
      const { headers, body } = signed(name, payload);
      const event = verifier.parse(headers, body);
      kinds.push(`${name}.${payload.action}:${event.kind}`);
      if (payload.action !== "rerequested") continue;
      const target = (payload as unknown as Record<string, { head_sha: string; pull_requests: { number: number }[] }>)[
        name
      ]!;
      expect(event).toMatchObject({ kind: "rerun", headSha: target.head_sha });
      if (target.pull_requests[0]) expect(event).toMatchObject({ pullNumber: target.pull_requests[0].number });
    }
    expect(kinds).toEqual(
      expect.arrayContaining([
        "check_run.rerequested:rerun",
        "check_suite.rerequested:rerun",
        "check_run.completed:ignored",
        "check_suite.requested:ignored",
      ]),
    );
  });

  it("reads a repository renamed or transferred (its new name, GitHub's id, the installation) and ignores its other actions", () => {
    const read = recordedEvents("repository").map(({ payload }) => {
      const { headers, body } = signed("repository", payload);
      return verifier.parse(headers, body);
    });
    const renamed = read.find((e) => e.kind === "repository" && e.action === "renamed");
    expect(renamed).toMatchObject({
      kind: "repository",
      repo: { owner: "Octocoders", name: "Hello-World" },
      providerRepoId: "186853261",
      installationId: expect.any(String),
    });
    expect(read.filter((e) => e.kind === "repository").map((e) => (e as { action: string }).action)).toEqual([
      "renamed",
      "transferred",
      "transferred",
      "transferred",
    ]);
    expect(read.filter((e) => e.kind === "ignored").map((e) => (e as { reason: string }).reason)).toContain(
      "repository publicized",
    );
  });

  it("ignores the events Verdict does not act on", () => {
    const [issues] = recordedEvents("issues");
    const { headers, body } = signed("issues", issues!.payload);
    expect(verifier.parse(headers, body)).toEqual({
      kind: "ignored",
      deliveryId: headers["x-github-delivery"],
      reason: "event issues",
    });
  });
});

describe("GitHubInboundVerifier against an attacker", () => {
  const [opened] = recordedEvents("pull_request").filter((e) => e.payload.action === "opened");
  const payload = opened!.payload;

  it("refuses a delivery signed with another secret, unsigned, or signed with SHA-1 only", async () => {
    const forged = signed("pull_request", payload, "not-the-secret");
    expect(await verifier.verify(forged.headers, forged.body, SECRET)).toBe(false);
    const { "x-hub-signature-256": signature, ...unsigned } = signed("pull_request", payload).headers;
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(await verifier.verify(unsigned, forged.body, SECRET)).toBe(false);
    expect(await verifier.verify({ ...unsigned, "x-hub-signature": "sha1=0000" }, forged.body, SECRET)).toBe(false);
    expect(await verifier.verify({ ...unsigned, "x-hub-signature-256": "sha256=" }, forged.body, SECRET)).toBe(false);
  });

  it("refuses a recorded signature replayed on a changed body", async () => {
    const genuine = signed("pull_request", payload);
    expect(await verifier.verify(genuine.headers, genuine.body, SECRET)).toBe(true);
    const changed = JSON.stringify({ ...payload, number: 999 });
    expect(await verifier.verify(genuine.headers, Buffer.from(changed), SECRET)).toBe(false);
    expect(await verifier.verify(genuine.headers, Buffer.concat([genuine.body, Buffer.from(" ")]), SECRET)).toBe(false);
    const flipped = Buffer.from(genuine.body);
    flipped[10] = flipped[10]! ^ 1;
    expect(await verifier.verify(genuine.headers, flipped, SECRET)).toBe(false);
  });

  it("refuses a body over GitHub's 25 MB cap and a body that is not UTF-8, even when signed", async () => {
    const oversized = githubDelivery("push", Buffer.alloc(GITHUB_MAX_PAYLOAD_BYTES + 1, 0x20), SECRET);
    expect(await verifier.verify(oversized.headers, oversized.body, SECRET)).toBe(false);
    const latin1 = githubDelivery("push", Buffer.from([0x7b, 0xff, 0x7d]), SECRET);
    expect(await verifier.verify(latin1.headers, latin1.body, SECRET)).toBe(false);
    const empty = githubDelivery("push", Buffer.alloc(0), SECRET);
    expect(await verifier.verify(empty.headers, empty.body, SECRET)).toBe(false);
  });

  it("answers a malformed delivery with ProviderError invalid, naming what is wrong", async () => {
    const notJson = githubDelivery("pull_request", "{not json", SECRET);
    expect(await verifier.verify(notJson.headers, notJson.body, SECRET)).toBe(true);
    expect(() => verifier.parse(notJson.headers, notJson.body)).toThrow(ProviderError);

    const pr = payload as { pull_request: { head: Record<string, unknown> } };
    const noHead = signed("pull_request", { ...pr, pull_request: { ...pr.pull_request, head: { ref: "x" } } });
    expect(() => verifier.parse(noHead.headers, noHead.body)).toThrow(
      /malformed pull_request payload at pull_request\.head\.sha/,
    );
    const badSha = signed("push", { ...recordedEvents("push")[0]!.payload, after: "not-a-sha" });
    expect(() => verifier.parse(badSha.headers, badSha.body)).toThrow(/at after/);

    const { "x-github-delivery": _, ...noDelivery } = signed("pull_request", payload).headers;
    try {
      verifier.parse(noDelivery, Buffer.from(JSON.stringify(payload)));
      throw new Error("parsed a delivery without its id");
    } catch (error) {
      expect(error).toMatchObject({ name: "ProviderError", code: "invalid" });
    }
  });

  it("marks a pull request from a fork, and one whose fork was deleted", () => {
    const pr = payload as { pull_request: { head: { repo: { id: number } }; base: unknown } };
    const fork = { ...pr, pull_request: { ...pr.pull_request, head: { ...pr.pull_request.head, repo: { id: 4242 } } } };
    const fromFork = signed("pull_request", fork);
    expect(verifier.parse(fromFork.headers, fromFork.body)).toMatchObject({ kind: "pull_request", fromFork: true });
    const gone = { ...pr, pull_request: { ...pr.pull_request, head: { ...pr.pull_request.head, repo: null } } };
    const deleted = signed("pull_request", gone);
    expect(verifier.parse(deleted.headers, deleted.body)).toMatchObject({ kind: "pull_request", fromFork: true });
  });
});
