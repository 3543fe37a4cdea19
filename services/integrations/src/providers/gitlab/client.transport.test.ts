// The GitLab adapter over real HTTP against the double of GitLab's REST API v4 written from
// GitLab's API documentation (test/support/gitlabApi.ts; no GitLab server can run on these
// machines, see docs/integrations/gitlab.md): it answers only the documented method, path, query
// and PRIVATE-TOKEN header, keeps merge request notes and commit statuses, and records every request.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "@jest/globals";
import type { CheckReport } from "../../domain/provider.js";
import { startGitLabApi, type GitLabApi } from "../../../test/support/gitlabApi.js";
import { GitLabClient, noteMarker } from "./client.js";

const TOKEN = "glpat-verdict-test-token";
const REPO = { owner: "acme/platform", name: "api" };
const PROJECT = "/api/v4/projects/acme%2Fplatform%2Fapi";
const ID = 7;
const BASE = "95790bf891e76fee5e1747ab589903a6a1f80f22";
const HEAD = "da1560886d4f094c3e6c9ef40349f7d38b5d27d7";
const WIDE = "1111111111111111111111111111111111111111";

let gitlab: GitLabApi;
let mr = 5;

beforeAll(async () => {
  gitlab = await startGitLabApi(TOKEN);
  gitlab.project({ id: ID, path: "acme/platform/api" });
  gitlab.commit(BASE, { "README.md": "# api\n", "src/old.ts": "a\nc\n", "gone.ts": "x\n" });
  gitlab.commit(
    HEAD,
    { "README.md": "# api\nmore\n", "src/old.ts": "a\nb\nc\n", "src/a.ts": "const key = 1;\n" },
    BASE,
  );
  // 120 files: more than one page of diffs (GitLab's per_page is at most 100).
  gitlab.commit(
    WIDE,
    Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`f${String(i).padStart(3, "0")}.ts`, "x\n"])),
    BASE,
  );
});
afterAll(() => gitlab.close());
beforeEach(() => {
  gitlab.requests.length = 0;
  // A fresh merge request per test, with a note of someone else's.
  mr++;
  gitlab.mergeRequest(ID, mr, BASE, HEAD);
});

const client = (token = TOKEN) =>
  new GitLabClient({ baseUrl: `${gitlab.url}/`, token, retry: { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 5_000 } });
const paths = () => gitlab.requests.map((r) => r.path);

describe("GitLabClient", () => {
  it("looks a project up by its URL-encoded full path, nested groups included", async () => {
    expect(await client().getRepository(REPO)).toEqual({
      providerRepoId: "7",
      fullName: "acme/platform/api",
      defaultBranch: "main",
      private: true,
    });
    expect(paths()).toEqual([PROJECT]);
    await expect(client().getRepository({ owner: "acme", name: "nope" })).rejects.toMatchObject({ code: "not_found" });
  });

  it("lists a merge request's diffs page by page, a push's comparison and a new branch's commit", async () => {
    expect(await client().listChangedFiles({ repo: REPO, headSha: HEAD, pullNumber: mr })).toEqual([
      { path: "README.md", status: "modified", addedLines: [2] },
      { path: "gone.ts", status: "removed", addedLines: [] },
      { path: "src/a.ts", status: "added", addedLines: [1] },
      { path: "src/old.ts", status: "modified", addedLines: [2] },
    ]);
    gitlab.mergeRequest(ID, 99, BASE, WIDE);
    const wide = await client().listChangedFiles({ repo: REPO, headSha: WIDE, pullNumber: 99 });
    expect(wide.filter((f) => f.status === "added")).toHaveLength(120);
    expect(paths().slice(-2)).toEqual([
      `${PROJECT}/merge_requests/99/diffs?per_page=100&page=1`,
      `${PROJECT}/merge_requests/99/diffs?per_page=100&page=2`,
    ]);
    expect(await client().listChangedFiles({ repo: REPO, headSha: HEAD, baseSha: BASE })).toHaveLength(4);
    expect(await client().listChangedFiles({ repo: REPO, headSha: BASE, baseSha: "0".repeat(40) })).toEqual([
      { path: "README.md", status: "added", addedLines: [1] },
      { path: "gone.ts", status: "added", addedLines: [1] },
      { path: "src/old.ts", status: "added", addedLines: [1, 2] },
    ]);
  });

  it("reads a file's raw bytes at a commit, and null where it does not exist", async () => {
    const bytes = await client().getFileContent(REPO, "src/a.ts", HEAD);
    expect(Buffer.from(bytes!).toString()).toBe("const key = 1;\n");
    expect(await client().getFileContent(REPO, "src/a.ts", BASE)).toBeNull();
    expect(paths()[0]).toBe(`${PROJECT}/repository/files/src%2Fa.ts/raw?ref=${HEAD}`);
  });

  it("sets a commit status and keeps ONE merge request note, edited in place on every push", async () => {
    const gl = client();
    const change = { repo: REPO, headSha: HEAD, pullNumber: mr };
    const handle = await gl.startReport(change, "verdict");
    const failing: CheckReport = {
      state: "failure",
      title: "1 secret found",
      summary: "Verdict found a secret.",
      detailsUrl: "https://verdict.test/evaluations/eval_1",
      annotations: [
        {
          path: "src/a.ts",
          line: 2,
          level: "failure",
          title: "AWS key",
          message: "AKIA************MPLE | leaked",
          fingerprint: "f1",
        },
      ],
    };
    await gl.completeReport(change, handle, failing);
    await gl.startReport(change, "verdict");
    await gl.completeReport(change, handle, { ...failing, state: "success", title: "No findings", annotations: [] });
    const sent = gitlab.requests
      .filter((r) => r.method === "POST" && r.path.includes("/statuses/"))
      .map((r) => JSON.parse(r.body) as Record<string, unknown>);
    expect(sent.map((s) => s.state)).toEqual(["running", "failed", "running", "success"]);
    expect(sent[1]).toMatchObject({ name: "verdict", description: "1 secret found", target_url: failing.detailsUrl });
    expect(
      gitlab
        .statuses(ID, HEAD)
        .filter((s) => s.name === "verdict")
        .map((s) => s.status),
    ).toEqual(["failed", "success"]);
    const notes = gitlab.notes(ID, mr);
    expect(notes).toHaveLength(1);
    expect(notes[0]!.body.startsWith(noteMarker("verdict"))).toBe(true);
    expect(notes[0]!.body).toContain("### No findings");
    expect(gitlab.requests.filter((r) => r.path.endsWith("/notes") && r.method === "POST")).toHaveLength(1);
    expect(gitlab.requests.filter((r) => r.method === "PUT")).toHaveLength(1);
  });

  it("starts a check again on a status already running, and shows 'pending, retrying' only where GitLab lets it", async () => {
    const change = { repo: REPO, headSha: BASE };
    await client().reportRetrying(change, "retrying", "the provider is rate-limiting");
    await client().startReport(change, "retrying");
    await client().startReport(change, "retrying");
    await client().reportRetrying(change, "retrying", "the provider is rate-limiting");
    const refused = gitlab.requests.filter((r) => r.method === "POST").length;
    expect(refused).toBe(4);
    expect(gitlab.statuses(ID, BASE).find((s) => s.name === "retrying")).toMatchObject({
      status: "running",
      description: "Verdict is checking this change",
    });
  });

  it("gives a push (no merge request) a status only, a change too large to evaluate canceled, never a pass", async () => {
    const change = { repo: REPO, headSha: HEAD };
    await client().completeReport(
      change,
      { id: "big" },
      { state: "neutral", title: "Too large", summary: "s", annotations: [] },
    );
    expect(gitlab.requests.map((r) => r.method)).toEqual(["POST"]);
    expect(gitlab.statuses(ID, HEAD).find((s) => s.name === "big")).toMatchObject({ status: "canceled" });
  });

  it("waits out a 429's Retry-After, and refuses to go on with a revoked token", async () => {
    gitlab.inject(() => true, 429, { "retry-after": "1", "ratelimit-remaining": "0" });
    const started = Date.now();
    await expect(client().getRepository(REPO)).resolves.toMatchObject({ providerRepoId: "7" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(gitlab.requests).toHaveLength(2);
    await expect(client("glpat-revoked").getRepository(REPO)).rejects.toMatchObject({
      code: "unauthorized",
      status: 401,
    });
    expect(gitlab.requests).toHaveLength(3);
  });
});
