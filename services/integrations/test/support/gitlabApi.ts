// A double of GitLab's REST API v4, written from GitLab's API documentation (no GitLab server can
// run on these machines; docs/integrations/gitlab.md says what this proves and what it does not).
// It answers only the documented method, path (a project by its id or its URL-encoded full path),
// query and PRIVATE-TOKEN header, over real HTTP: projects, commits with their files, merge
// requests, diffs (paged with x-next-page), raw files, commit statuses, merge request notes and
// the token's own details (GET /personal_access_tokens/self).
// Commit statuses follow the transitions GitLab's API allows for an external status: a status
// still pending or running is the one a new state moves (running → running and running → pending
// are refused with 400 "Cannot transition status", as GitLab answers), a finished one is kept and
// a new one started. Every request is recorded; a fault can be injected for the next matching one.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface GitLabRequest {
  method: string;
  /** Path and query, as sent. */
  path: string;
  body: string;
  token: string | undefined;
}

export interface GitLabStatus {
  id: number;
  sha: string;
  name: string;
  status: "pending" | "running" | "success" | "failed" | "canceled";
  description: string | null;
  target_url: string | null;
}

interface Project {
  id: number;
  path: string;
  defaultBranch: string;
  visibility: "private" | "internal" | "public";
}

interface Commit {
  files: Record<string, string>;
  parent?: string;
}

interface Fault {
  matches: (method: string, path: string) => boolean;
  status: number;
  headers: Record<string, string>;
}

/** A project webhook as added with POST /projects/:id/hooks. */
export interface GitLabHook {
  id: number;
  project_id: number;
  url: string;
  /** The secret token GitLab sends back in X-Gitlab-Token (never answered by GitLab's API). */
  token: string;
  push_events: boolean;
  merge_requests_events: boolean;
}

export interface GitLabApi {
  url: string;
  hooks: GitLabHook[];
  requests: GitLabRequest[];
  /** Accepted access tokens (a revoked one is removed). */
  tokens: Set<string>;
  /** A token's expires_at (a date, YYYY-MM-DD); a token not here has none (null). */
  tokenExpiresAt: Map<string, string>;
  project(p: { id: number; path: string; defaultBranch?: string }): void;
  /** Renames or transfers a project: the same id at a new full path. */
  moveProject(id: number, path: string): void;
  /** A commit of `files` (the whole tree at that commit), after `parent`. */
  commit(sha: string, files: Record<string, string>, parent?: string): void;
  /** A merge request of project `projectId`: its diffs are from `baseSha` to its head. */
  mergeRequest(projectId: number, iid: number, baseSha: string, headSha: string): void;
  notes(projectId: number, iid: number): Array<{ id: number; body: string }>;
  /** Every status set on a commit, oldest first (a status moved through states is listed once). */
  statuses(projectId: number, sha: string): GitLabStatus[];
  /** The next request that matches is answered with this status and headers instead. */
  inject(matches: (method: string, path: string) => boolean, status: number, headers?: Record<string, string>): void;
  close(): Promise<void>;
}

const STATES = new Set(["pending", "running", "success", "failed", "canceled"]);
const FINISHED = new Set(["success", "failed", "canceled"]);
const PAGE_MAX = 100;

/** A line diff of two texts as GitLab shows a file's `diff`: one hunk, every new line ' ' or '+'. */
function unified(before: string | undefined, after: string | undefined): string {
  const old = before === undefined ? [] : before.replace(/\n$/, "").split("\n");
  const now = after === undefined ? [] : after.replace(/\n$/, "").split("\n");
  const kept = new Set(old);
  const current = new Set(now);
  const lines = [
    ...old.filter((l) => !current.has(l)).map((l) => `-${l}`),
    ...now.map((l) => (kept.has(l) ? ` ${l}` : `+${l}`)),
  ];
  return `@@ -${old.length ? 1 : 0},${old.length} +${now.length ? 1 : 0},${now.length} @@\n${lines.join("\n")}\n`;
}

export async function startGitLabApi(token: string): Promise<GitLabApi> {
  const projects = new Map<number, Project>();
  const commits = new Map<string, Commit>();
  const mergeRequests = new Map<string, { baseSha: string; headSha: string }>();
  const notes = new Map<string, Array<{ id: number; body: string }>>();
  const statuses = new Map<string, GitLabStatus[]>();
  const requests: GitLabRequest[] = [];
  const faults: Fault[] = [];
  const tokens = new Set([token]);
  const tokenExpiresAt = new Map<string, string>();
  const hooks: GitLabHook[] = [];
  let nextId = 1000;

  const findProject = (ref: string) => {
    const decoded = decodeURIComponent(ref);
    return /^[0-9]+$/.test(decoded)
      ? projects.get(Number(decoded))
      : [...projects.values()].find((p) => p.path === decoded);
  };
  const diffs = (from: string | undefined, to: string) => {
    const a = from === undefined ? {} : (commits.get(from)?.files ?? {});
    const b = commits.get(to)!.files;
    const paths = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((p) => a[p] !== b[p]).sort();
    return paths.map((p) => ({
      old_path: p,
      new_path: p,
      a_mode: a[p] === undefined ? "0" : "100644",
      b_mode: b[p] === undefined ? "0" : "100644",
      new_file: a[p] === undefined,
      renamed_file: false,
      deleted_file: b[p] === undefined,
      diff: unified(a[p], b[p]),
    }));
  };
  const paged = (items: unknown[], url: URL) => {
    const perPage = Math.min(Number(url.searchParams.get("per_page") ?? "20"), PAGE_MAX);
    const page = Number(url.searchParams.get("page") ?? "1");
    const last = Math.max(1, Math.ceil(items.length / perPage));
    return {
      status: 200,
      json: items.slice((page - 1) * perPage, page * perPage),
      headers: { "x-next-page": page < last ? String(page + 1) : "", "x-page": String(page) },
    };
  };
  const bad = (message: string) => ({ status: 400, json: { message } });
  const notFound = (what: string) => ({ status: 404, json: { message: `404 ${what} Not Found` } });

  function setStatus(project: Project, sha: string, body: Record<string, unknown>) {
    const state = body.state;
    if (typeof state !== "string" || !STATES.has(state)) return bad("state does not have a valid value");
    if (!commits.has(sha)) return notFound("Commit");
    const name =
      typeof body.name === "string" ? body.name : typeof body.context === "string" ? body.context : "default";
    const list = statuses.get(`${project.id}:${sha}`) ?? [];
    let status = list.find((s) => s.name === name && !FINISHED.has(s.status));
    const from = status?.status;
    // pending: enqueue! (only a new status); running: enqueue, then run! (not from running).
    if ((state === "pending" && from !== undefined) || (state === "running" && from === "running")) {
      const event = state === "pending" ? "enqueue" : "run";
      return bad(
        `Cannot transition status via :${event} from :${from} (Reason(s): Status cannot transition via "${event}")`,
      );
    }
    if (!status) {
      status = { id: nextId++, sha, name, status: "pending", description: null, target_url: null };
      list.push(status);
      statuses.set(`${project.id}:${sha}`, list);
    }
    status.status = state as GitLabStatus["status"];
    if (typeof body.description === "string") status.description = body.description;
    if (typeof body.target_url === "string") status.target_url = body.target_url;
    return { status: 201, json: { ...status, ref: null, allow_failure: false } };
  }

  function route(
    method: string,
    url: URL,
    body: string,
    token: string,
  ): { status: number; json?: unknown; raw?: Buffer; headers?: Record<string, string> } {
    // The personal, project or group access token the request carries, as GitLab's
    // "Personal access tokens API" describes it.
    if (method === "GET" && url.pathname === "/api/v4/personal_access_tokens/self")
      return {
        status: 200,
        json: {
          id: [...tokens].indexOf(token) + 1,
          name: "verdict",
          revoked: false,
          created_at: "2026-01-05T09:00:00.000Z",
          scopes: ["api"],
          user_id: 3,
          last_used_at: null,
          active: true,
          expires_at: tokenExpiresAt.get(token) ?? null,
        },
      };
    const m = /^\/api\/v4\/projects\/([^/]+)(\/.*)?$/.exec(url.pathname);
    if (!m) return notFound("");
    const project = findProject(m[1]!);
    if (!project) return notFound("Project");
    const rest = m[2] ?? "";
    if (method === "GET" && rest === "")
      return {
        status: 200,
        json: {
          id: project.id,
          path_with_namespace: project.path,
          path: project.path.split("/").pop(),
          default_branch: project.defaultBranch,
          visibility: project.visibility,
        },
      };
    let r: RegExpExecArray | null;
    if (method === "GET" && (r = /^\/merge_requests\/(\d+)\/diffs$/.exec(rest))) {
      const mr = mergeRequests.get(`${project.id}:${r[1]}`);
      return mr ? paged(diffs(mr.baseSha, mr.headSha), url) : notFound("Merge Request");
    }
    if (method === "GET" && rest === "/repository/compare") {
      const from = url.searchParams.get("from") ?? "";
      const to = url.searchParams.get("to") ?? "";
      if (!commits.has(from) || !commits.has(to)) return notFound("Commit");
      return { status: 200, json: { commit: { id: to }, commits: [], diffs: diffs(from, to), compare_timeout: false } };
    }
    if (method === "GET" && (r = /^\/repository\/commits\/([0-9a-f]{40})\/diff$/.exec(rest))) {
      const commit = commits.get(r[1]!);
      return commit ? paged(diffs(commit.parent, r[1]!), url) : notFound("Commit");
    }
    if (method === "GET" && (r = /^\/repository\/files\/([^/]+)\/raw$/.exec(rest))) {
      const ref = url.searchParams.get("ref");
      if (!ref) return bad("ref is missing");
      const text = commits.get(ref)?.files[decodeURIComponent(r[1]!)];
      return text === undefined ? notFound("File") : { status: 200, raw: Buffer.from(text) };
    }
    if (method === "POST" && rest === "/hooks") {
      const h = JSON.parse(body || "{}") as Record<string, unknown>;
      if (typeof h.url !== "string" || !/^https?:\/\//.test(h.url)) return bad("url is missing");
      const hook: GitLabHook = {
        id: nextId++,
        project_id: project.id,
        url: h.url,
        token: typeof h.token === "string" ? h.token : "",
        // GitLab's defaults: push events on, merge request events off.
        push_events: h.push_events === undefined ? true : h.push_events === true,
        merge_requests_events: h.merge_requests_events === true,
      };
      hooks.push(hook);
      const { token: _secret, ...answered } = hook;
      return { status: 201, json: { ...answered, created_at: new Date().toISOString() } };
    }
    if (method === "POST" && (r = /^\/statuses\/([0-9a-f]{40})$/.exec(rest)))
      return setStatus(project, r[1]!, JSON.parse(body || "{}") as Record<string, unknown>);
    if ((r = /^\/merge_requests\/(\d+)\/notes(?:\/(\d+))?$/.exec(rest))) {
      const key = `${project.id}:${r[1]}`;
      if (!mergeRequests.has(key)) return notFound("Merge Request");
      const list = notes.get(key) ?? [];
      notes.set(key, list);
      if (method === "GET" && r[2] === undefined) return paged(list, url);
      const text = (JSON.parse(body || "{}") as { body?: unknown }).body;
      if (typeof text !== "string" || text === "") return bad("body is missing");
      if (method === "POST" && r[2] === undefined) {
        const note = { id: nextId++, body: text };
        list.push(note);
        return { status: 201, json: note };
      }
      const note = list.find((n) => n.id === Number(r![2]));
      if (method === "PUT" && note) {
        note.body = text;
        return { status: 200, json: note };
      }
      return notFound("Note");
    }
    return notFound("");
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (d: Buffer) => chunks.push(d));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://gitlab.test");
      const method = req.method ?? "";
      const body = Buffer.concat(chunks).toString("utf8");
      const sent = req.headers["private-token"];
      requests.push({
        method,
        path: url.pathname + url.search,
        body,
        token: typeof sent === "string" ? sent : undefined,
      });
      const fault = faults.findIndex((f) => f.matches(method, url.pathname));
      if (fault >= 0) {
        const [f] = faults.splice(fault, 1);
        return void res.writeHead(f!.status, { "content-type": "application/json", ...f!.headers }).end("{}");
      }
      if (typeof sent !== "string" || !tokens.has(sent))
        return void res.writeHead(401, { "content-type": "application/json" }).end('{"message":"401 Unauthorized"}');
      const answer = route(method, url, body, sent);
      res.writeHead(answer.status, {
        "content-type": answer.raw ? "text/plain" : "application/json",
        ...answer.headers,
      });
      res.end(answer.raw ?? JSON.stringify(answer.json ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    hooks,
    tokens,
    tokenExpiresAt,
    project: ({ id, path, defaultBranch = "main" }) =>
      void projects.set(id, { id, path, defaultBranch, visibility: "private" }),
    moveProject: (id, path) => void (projects.get(id)!.path = path),
    commit: (sha, files, parent) => void commits.set(sha, { files, ...(parent ? { parent } : {}) }),
    mergeRequest: (projectId, iid, baseSha, headSha) =>
      void mergeRequests.set(`${projectId}:${iid}`, { baseSha, headSha }),
    notes: (projectId, iid) => notes.get(`${projectId}:${iid}`) ?? [],
    statuses: (projectId, sha) => statuses.get(`${projectId}:${sha}`) ?? [],
    inject: (matches, status, headers = {}) => void faults.push({ matches, status, headers }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
