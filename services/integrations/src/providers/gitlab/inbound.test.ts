// GitLab's webhook deliveries, built with the fields its "Webhook events" documentation lists
// for merge request and push events (no GitLab server runs here: docs/integrations/gitlab.md).
import { describe, expect, it } from "@jest/globals";
import { noteBody } from "./client.js";
import { gitlabDelivery, mergeRequestHook, pushHook } from "../../../test/support/gitlabEvents.js";
import { GITLAB_MAX_PAYLOAD_BYTES, GitLabInboundVerifier } from "./inbound.js";

const SECRET = "gitlab-hook-secret-token";
const verifier = new GitLabInboundVerifier();
const HEAD = "da1560886d4f094c3e6c9ef40349f7d38b5d27d7";
const BEFORE = "95790bf891e76fee5e1747ab589903a6a1f80f22";
const project = { id: 7, path_with_namespace: "acme/platform/api", default_branch: "main" };

const delivery = (event: string, payload: unknown, token = SECRET) => gitlabDelivery(event, payload, token);
const mergeRequest = (attributes: object) =>
  mergeRequestHook(project, { iid: 5, source_branch: "leak", headSha: HEAD, ...attributes });

describe("GitLabInboundVerifier", () => {
  it("accepts the hook's secret token and refuses another, a missing one, or an oversized body", async () => {
    const good = delivery("Push Hook", {});
    expect(await verifier.verify(good.headers, good.body, SECRET)).toBe(true);
    const forged = delivery("Push Hook", {}, "guess");
    expect(await verifier.verify(forged.headers, forged.body, SECRET)).toBe(false);
    expect(await verifier.verify(delivery("Push Hook", {}, `${SECRET}x`).headers, good.body, SECRET)).toBe(false);
    const { "X-Gitlab-Token": _, ...unsigned } = good.headers;
    expect(await verifier.verify(unsigned, good.body, SECRET)).toBe(false);
    expect(await verifier.verify(good.headers, Buffer.alloc(GITLAB_MAX_PAYLOAD_BYTES + 1), SECRET)).toBe(false);
    expect(await verifier.verify(good.headers, good.body, "")).toBe(false);
  });

  it("reads merge request hooks: open, new commits, an edit, close and merge, reopen, a fork", () => {
    const read = (attributes: object) => {
      const { headers, body } = delivery("Merge Request Hook", mergeRequest(attributes));
      return verifier.parse(headers, body);
    };
    expect(read({})).toMatchObject({
      kind: "pull_request",
      action: "opened",
      repo: { owner: "acme/platform", name: "api" },
      providerRepoId: "7",
      pullNumber: 5,
      headSha: HEAD,
      fromFork: false,
    });
    expect(read({ action: "update", oldrev: BEFORE })).toMatchObject({ action: "synchronize" });
    expect(read({ action: "update" })).toMatchObject({ action: "other" });
    expect(read({ action: "close" })).toMatchObject({ action: "closed" });
    expect(read({ action: "merge" })).toMatchObject({ action: "closed" });
    expect(read({ action: "reopen" })).toMatchObject({ action: "reopened" });
    expect(read({ source_project_id: 99 })).toMatchObject({ fromFork: true });
  });

  it("reads a push, ignores a branch deletion and other events", () => {
    const push = pushHook(project, { ref: "refs/heads/main", before: BEFORE, after: HEAD });
    const { headers, body } = delivery("Push Hook", push);
    expect(verifier.parse(headers, body)).toEqual({
      kind: "push",
      deliveryId: headers["X-Gitlab-Event-UUID"],
      repo: { owner: "acme/platform", name: "api" },
      providerRepoId: "7",
      ref: "refs/heads/main",
      before: BEFORE,
      after: HEAD,
      forced: false,
    });
    const deleted = delivery("Push Hook", { ...push, after: "0".repeat(40) });
    expect(verifier.parse(deleted.headers, deleted.body)).toMatchObject({ kind: "ignored" });
    const note = delivery("Note Hook", { object_kind: "note" });
    expect(verifier.parse(note.headers, note.body)).toMatchObject({ kind: "ignored", reason: "event Note Hook" });
  });

  it("answers a malformed delivery with ProviderError invalid", () => {
    const bad = delivery("Merge Request Hook", mergeRequest({ last_commit: { id: "nope" } }));
    expect(() => verifier.parse(bad.headers, bad.body)).toThrow(/object_attributes\.last_commit\.id/);
    const notJson = { ...delivery("Push Hook", {}), body: Buffer.from("{") };
    expect(() => verifier.parse(notJson.headers, notJson.body)).toThrow(expect.objectContaining({ code: "invalid" }));
    const { "X-Gitlab-Event-UUID": _, ...noId } = delivery("Push Hook", {}).headers;
    expect(() => verifier.parse(noId, Buffer.from("{}"))).toThrow(expect.objectContaining({ code: "invalid" }));
  });
});

describe("the merge request note", () => {
  it("lists findings in a table whose cells cannot be broken by a path or message", () => {
    const body = noteBody({
      state: "failure",
      title: "1 secret",
      summary: "s",
      annotations: [{ path: "a|b.ts", line: 3, level: "failure", title: "t", message: "x\n| y `z`", fingerprint: "f" }],
    });
    expect(body).toContain("| failure | `a\\|b.ts` | 3 | t: x \\| y 'z' |");
    expect(body).toContain("**1 failing, 0 warnings, 0 notices**");
  });
});
