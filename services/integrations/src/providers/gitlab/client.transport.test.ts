// The GitLab adapter over real HTTP against a double of GitLab's REST API v4, written from
// GitLab's API documentation (no GitLab server can run on these machines; see
// docs/integrations/gitlab.md): it answers only the documented method, path, query and
// PRIVATE-TOKEN header, keeps merge request notes in memory, and records every request.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "@jest/globals";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { CheckReport } from "../../domain/provider.js";
import { GitLabClient, noteMarker } from "./client.js";

const TOKEN = "glpat-verdict-test-token";
const REPO = { owner: "acme/platform", name: "api" };
const PROJECT = "/api/v4/projects/acme%2Fplatform%2Fapi";
const HEAD = "da1560886d4f094c3e6c9ef40349f7d38b5d27d7";
const BASE = "95790bf891e76fee5e1747ab589903a6a1f80f22";

interface Seen {
  method: string;
  path: string;
  body: string;
}
let server: Server;
let base: string;
const seen: Seen[] = [];
let notes: Array<{ id: number; body: string }> = [];
let faults: Array<{ status: number; headers: Record<string, string> }> = [];

const diff = (path: string, extra: object = {}) => ({
  old_path: path,
  new_path: path,
  new_file: false,
  renamed_file: false,
  deleted_file: false,
  diff: "@@ -1,2 +1,3 @@\n a\n+b\n c\n",
  ...extra,
});

function route(
  method: string,
  url: URL,
  body: string,
): { status: number; json?: unknown; raw?: Buffer; headers?: Record<string, string> } {
  const path = url.pathname;
  const page = url.searchParams.get("page") ?? "1";
  if (method === "GET" && path === PROJECT)
    return {
      status: 200,
      json: { id: 7, path_with_namespace: "acme/platform/api", default_branch: "main", visibility: "internal" },
    };
  if (method === "GET" && path === `${PROJECT}/merge_requests/5/diffs`) {
    if (page === "1")
      return { status: 200, json: [diff("src/a.ts", { new_file: true })], headers: { "x-next-page": "2" } };
    return {
      status: 200,
      json: [
        diff("src/b.ts", { renamed_file: true, old_path: "src/old.ts" }),
        diff("gone.ts", { deleted_file: true, diff: "" }),
      ],
      headers: { "x-next-page": "" },
    };
  }
  if (method === "GET" && path === `${PROJECT}/repository/compare`) {
    if (url.searchParams.get("from") !== BASE || url.searchParams.get("to") !== HEAD) return { status: 400 };
    return { status: 200, json: { diffs: [diff("README.md")] } };
  }
  if (method === "GET" && path === `${PROJECT}/repository/commits/${HEAD}/diff`)
    return { status: 200, json: [diff("new.ts")] };
  if (method === "GET" && path === `${PROJECT}/repository/files/src%2Fa.ts/raw`) {
    return url.searchParams.get("ref") === HEAD
      ? { status: 200, raw: Buffer.from("const key = 1;\n") }
      : { status: 404 };
  }
  if (method === "GET" && path.startsWith(`${PROJECT}/repository/files/`))
    return { status: 404, json: { message: "404 File Not Found" } };
  if (method === "POST" && path === `${PROJECT}/statuses/${HEAD}`) {
    const status = JSON.parse(body) as { state: string };
    const states = ["pending", "running", "success", "failed", "canceled"];
    return states.includes(status.state) ? { status: 201, json: { id: 93, ...status } } : { status: 400 };
  }
  if (path === `${PROJECT}/merge_requests/5/notes`) {
    if (method === "GET") return { status: 200, json: notes, headers: { "x-next-page": "" } };
    if (method === "POST") {
      const note = { id: 300 + notes.length, body: (JSON.parse(body) as { body: string }).body };
      notes.push(note);
      return { status: 201, json: note };
    }
  }
  const edit = new RegExp(`^${PROJECT}/merge_requests/5/notes/(\\d+)$`).exec(path);
  if (method === "PUT" && edit) {
    const note = notes.find((n) => n.id === Number(edit[1]));
    if (!note) return { status: 404 };
    note.body = (JSON.parse(body) as { body: string }).body;
    return { status: 200, json: note };
  }
  return { status: 404, json: { message: "404 Not Found" } };
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://gitlab.test");
      seen.push({ method: req.method ?? "", path: url.pathname + url.search, body });
      const fault = faults.shift();
      if (fault) return void res.writeHead(fault.status, fault.headers).end("{}");
      if (req.headers["private-token"] !== TOKEN) return void res.writeHead(401).end('{"message":"401 Unauthorized"}');
      const answer = route(req.method ?? "", url, body);
      res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
      res.end(answer.raw ?? JSON.stringify(answer.json ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen.length = 0;
  notes = [{ id: 1, body: "Looks good to me" }];
  faults = [];
});

const client = (token = TOKEN) =>
  new GitLabClient({ baseUrl: `${base}/`, token, retry: { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 5_000 } });

describe("GitLabClient", () => {
  it("looks a project up by its URL-encoded full path, nested groups included", async () => {
    expect(await client().getRepository(REPO)).toEqual({
      providerRepoId: "7",
      fullName: "acme/platform/api",
      defaultBranch: "main",
      private: true,
    });
    expect(seen.map((s) => s.path)).toEqual([PROJECT]);
  });

  it("lists a merge request's diffs page by page, a push's comparison and a new branch's commit", async () => {
    const files = await client().listChangedFiles({ repo: REPO, headSha: HEAD, pullNumber: 5 });
    expect(files).toEqual([
      { path: "src/a.ts", status: "added", addedLines: [2] },
      { path: "src/b.ts", status: "renamed", previousPath: "src/old.ts", addedLines: [2] },
      { path: "gone.ts", status: "removed", addedLines: [] },
    ]);
    expect(seen.map((s) => s.path)).toEqual([
      `${PROJECT}/merge_requests/5/diffs?per_page=100&page=1`,
      `${PROJECT}/merge_requests/5/diffs?per_page=100&page=2`,
    ]);
    expect(await client().listChangedFiles({ repo: REPO, headSha: HEAD, baseSha: BASE })).toHaveLength(1);
    expect(await client().listChangedFiles({ repo: REPO, headSha: HEAD, baseSha: "0".repeat(40) })).toEqual([
      { path: "new.ts", status: "modified", addedLines: [2] },
    ]);
  });

  it("reads a file's raw bytes at a commit, and null where it does not exist", async () => {
    const bytes = await client().getFileContent(REPO, "src/a.ts", HEAD);
    expect(Buffer.from(bytes!).toString()).toBe("const key = 1;\n");
    expect(await client().getFileContent(REPO, "missing.ts", HEAD)).toBeNull();
  });

  it("sets a commit status and keeps ONE merge request note, edited in place on every push", async () => {
    const github = client();
    const change = { repo: REPO, headSha: HEAD, pullNumber: 5 };
    const handle = await github.startReport(change, "verdict");
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
    await github.completeReport(change, handle, failing);
    await github.completeReport(change, handle, {
      ...failing,
      state: "success",
      title: "No findings",
      annotations: [],
    });
    const statuses = seen
      .filter((s) => s.method === "POST" && s.path.includes("/statuses/"))
      .map((s) => JSON.parse(s.body));
    expect(statuses.map((s) => s.state)).toEqual(["running", "failed", "success"]);
    expect(statuses[1]).toMatchObject({
      name: "verdict",
      description: "1 secret found",
      target_url: failing.detailsUrl,
    });
    expect(notes).toHaveLength(2);
    expect(notes[0]!.body).toBe("Looks good to me");
    expect(notes[1]!.body.startsWith(noteMarker("verdict"))).toBe(true);
    expect(notes[1]!.body).toContain("### No findings");
    expect(seen.filter((s) => s.path.endsWith("/notes") && s.method === "POST")).toHaveLength(1);
    expect(seen.filter((s) => s.method === "PUT")).toHaveLength(1);
  });

  it("gives a push (no merge request) a status only, a change too large to evaluate canceled, never a pass", async () => {
    const change = { repo: REPO, headSha: HEAD };
    await client().completeReport(
      change,
      { id: "verdict" },
      { state: "neutral", title: "Too large", summary: "s", annotations: [] },
    );
    expect(seen.map((s) => s.method)).toEqual(["POST"]);
    expect(JSON.parse(seen[0]!.body)).toMatchObject({ state: "canceled" });
  });

  it("waits out a 429's Retry-After, and refuses to go on with a revoked token", async () => {
    faults = [{ status: 429, headers: { "retry-after": "1", "ratelimit-remaining": "0" } }];
    const started = Date.now();
    await expect(client().getRepository(REPO)).resolves.toMatchObject({ providerRepoId: "7" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(seen).toHaveLength(2);
    await expect(client("glpat-revoked").getRepository(REPO)).rejects.toMatchObject({
      code: "unauthorized",
      status: 401,
    });
    expect(seen).toHaveLength(3);
  });
});
