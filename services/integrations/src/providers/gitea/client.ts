// Gitea's (and Forgejo's) REST API v1 as a ProviderClient: a connection's base URL and access
// token. A pull request's files come from its files and its diff; a push's from the compare API
// (its commits' files from their merge base, so a force-push's too) or, for a new branch, the head
// commit's. Statuses go to /statuses/{sha}; line comments are one review per report, the previous
// Verdict review of the pull request deleted first, so a later push updates rather than adds.
// Every call goes through domain/retry.ts: rate limits and outages are retried with backoff,
// honouring Retry-After; a longer wait goes up to the caller, which reschedules the check.
import { addedLinesByPath } from "../../domain/diff.js";
import { netPushFiles, type GiteaCommitFiles } from "./pushFiles.js";
import {
  DEFAULT_RETRY_POLICY,
  providerErrorFromHttp,
  systemRetryEnv,
  withRetry,
  type RetryEnv,
  type RetryPolicy,
} from "../../domain/retry.js";
import {
  ProviderError,
  type ChangeRef,
  type ChangedFile,
  type CheckReport,
  type ProviderClient,
  type ProviderRepository,
  type RepoRef,
  type ReportHandle,
  type TokenExpiry,
} from "../../domain/provider.js";

export interface GiteaClientOptions {
  /** e.g. https://gitea.example.com (a sub-path install keeps its path). */
  baseUrl: string;
  token: string;
  /** Deadline of one API call. */
  timeoutMs?: number;
  fetch?: typeof fetch;
  retry?: RetryPolicy;
  retryEnv?: RetryEnv;
}

/** A git commit id that is all zeros: a push that created a branch has no "before". */
const NO_COMMIT = /^0+$/;
/** What the commit APIs are asked for: each commit's files, without signature verification. */
const COMMIT_FILES = "verification=false&files=true";
/** Gitea's page size cap (its MAX_RESPONSE_ITEMS default). */
const PAGE = 50;
/** Marks the reviews this client posted, so that the next report replaces them. */
const MARKER = (name: string) => `<!-- verdict:${name} -->`;

const STATE: Record<CheckReport["state"], string> = {
  pending: "pending",
  success: "success",
  failure: "failure",
  // Gitea has no neutral: a warning shows that the change was not passed whole.
  neutral: "warning",
  error: "error",
};

const FILE_STATUS: Record<string, ChangedFile["status"] | undefined> = {
  added: "added",
  changed: "modified",
  modified: "modified",
  renamed: "renamed",
  copied: "copied",
  deleted: "removed",
};

interface GiteaReview {
  id: number;
  body: string;
  user?: { id: number } | null;
}

export class GiteaClient implements ProviderClient {
  readonly kind = "gitea" as const;
  private readonly api: string;
  private readonly timeoutMs: number;
  private readonly fetchFn: typeof fetch;
  private me: Promise<{ id: number }> | undefined;

  constructor(private readonly opts: GiteaClientOptions) {
    this.api = `${opts.baseUrl.replace(/\/+$/, "")}/api/v1`;
    this.timeoutMs = opts.timeoutMs ?? 15_000;
    this.fetchFn = opts.fetch ?? fetch;
  }

  async getRepository(repo: RepoRef): Promise<ProviderRepository> {
    const r = await this.json<{ id: number; full_name: string; default_branch: string; private: boolean }>(
      "GET",
      repoPath(repo),
    );
    return { providerRepoId: String(r.id), fullName: r.full_name, defaultBranch: r.default_branch, private: r.private };
  }

  async listChangedFiles(change: ChangeRef): Promise<ChangedFile[]> {
    return change.pullNumber === undefined
      ? this.pushFiles(change)
      : this.pullRequestFiles(change.repo, change.pullNumber);
  }

  /**
   * A push's files, net of its commits: those between its before and after (Gitea's compare, from
   * their merge base: a force-push's are the rewritten ones), or the head commit's when the push
   * created the branch or its before is gone. Gitea lists a commit's files without a diff, so a
   * push's files carry no added lines (a push gets a status, never line comments).
   */
  private async pushFiles(change: ChangeRef): Promise<ChangedFile[]> {
    const repo = repoPath(change.repo);
    if (change.baseSha !== undefined && !NO_COMMIT.test(change.baseSha)) {
      const compared = await this.json<{ commits?: GiteaCommitFiles[] | null }>(
        "GET",
        `${repo}/compare/${change.baseSha}...${change.headSha}?${COMMIT_FILES}`,
      ).catch((err: unknown) => {
        if (err instanceof ProviderError && err.code === "not_found") return null;
        throw err;
      });
      if (compared) return netPushFiles(compared.commits ?? []);
    }
    const head = await this.json<GiteaCommitFiles>(
      "GET",
      `${repo}/git/commits/${change.headSha}?stat=false&${COMMIT_FILES}`,
    );
    return netPushFiles([head]);
  }

  private async pullRequestFiles(repo: RepoRef, pullNumber: number): Promise<ChangedFile[]> {
    const base = `${repoPath(repo)}/pulls/${pullNumber}`;
    const files: ChangedFile[] = [];
    for (let page = 1; ; page++) {
      const batch = await this.json<{ filename: string; status: string; previous_filename?: string }[]>(
        "GET",
        `${base}/files?page=${page}&limit=${PAGE}`,
      );
      for (const f of batch) {
        const status = FILE_STATUS[f.status];
        if (!status) continue; // "unchanged" (a mode change): nothing to read
        files.push({
          path: f.filename,
          status,
          ...(f.previous_filename ? { previousPath: f.previous_filename } : {}),
        });
      }
      if (batch.length < PAGE) break;
    }
    const added = addedLinesByPath(await this.text("GET", `${base}.diff`));
    for (const f of files) {
      const lines = added.get(f.path);
      if (lines) f.addedLines = lines;
    }
    return files;
  }

  /** Gitea's (and Forgejo's) access tokens have no expiry: they last until deleted. */
  tokenExpiry(): Promise<TokenExpiry> {
    return Promise.resolve({ kind: "none", expiresAt: null });
  }

  async getFileContent(repo: RepoRef, path: string, ref: string): Promise<Uint8Array | null> {
    const res = await this.call(
      "GET",
      `${repoPath(repo)}/raw/${path.split("/").map(encodeURIComponent).join("/")}?ref=${encodeURIComponent(ref)}`,
      undefined,
      true,
    );
    return res && new Uint8Array(await res.arrayBuffer());
  }

  async startReport(change: ChangeRef, name: string): Promise<ReportHandle> {
    await this.setStatus(change, name, { state: "pending", title: "Verdict is checking this change" });
    return { id: name };
  }

  async completeReport(change: ChangeRef, handle: ReportHandle, report: CheckReport): Promise<void> {
    if (change.pullNumber !== undefined) await this.replaceReview(change, handle.id, report);
    await this.setStatus(change, handle.id, { state: report.state, title: report.title, url: report.detailsUrl });
  }

  async reportRetrying(change: ChangeRef, name: string, reason: string): Promise<void> {
    await this.setStatus(change, name, { state: "pending", title: `Verdict: pending, retrying (${reason})` });
  }

  private async setStatus(
    change: ChangeRef,
    context: string,
    s: { state: CheckReport["state"]; title: string; url?: string | undefined },
  ): Promise<void> {
    await this.json("POST", `${repoPath(change.repo)}/statuses/${change.headSha}`, {
      state: STATE[s.state],
      context,
      // Gitea keeps 255 characters of a description.
      description: s.title.slice(0, 255),
      ...(s.url ? { target_url: s.url } : {}),
    });
  }

  private async replaceReview(change: ChangeRef, name: string, report: CheckReport): Promise<void> {
    const base = `${repoPath(change.repo)}/pulls/${change.pullNumber}/reviews`;
    const me = await this.whoAmI();
    const marker = MARKER(name);
    for (let page = 1; ; page++) {
      const reviews = await this.json<GiteaReview[]>("GET", `${base}?page=${page}&limit=${PAGE}`);
      for (const r of reviews) {
        if (r.user?.id === me.id && r.body.includes(marker)) await this.json("DELETE", `${base}/${r.id}`);
      }
      if (reviews.length < PAGE) break;
    }
    if (report.annotations.length === 0) return;
    await this.json("POST", base, {
      event: "COMMENT",
      commit_id: change.headSha,
      body: `${report.title}\n\n${report.summary}\n\n${marker}`,
      comments: report.annotations.map((a) => ({
        path: a.path,
        new_position: a.line,
        body: `**${a.title}**\n\n${a.message}`,
      })),
    });
  }

  private whoAmI(): Promise<{ id: number }> {
    this.me ??= this.json<{ id: number }>("GET", "/user").catch((err: unknown) => {
      this.me = undefined;
      throw err;
    });
    return this.me;
  }

  private async request(method: string, path: string, body?: unknown): Promise<Response> {
    try {
      return await this.fetchFn(`${this.api}${path}`, {
        method,
        headers: {
          authorization: `token ${this.opts.token}`,
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        redirect: "error",
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      throw new ProviderError("unavailable", `Gitea did not answer ${method} ${path}: ${(err as Error).message}`);
    }
  }

  /** One call, retried; a 404 answers null when allowed, any other failure is a ProviderError. */
  private async call(method: string, path: string, body: unknown, allow404: true): Promise<Response | null>;
  private async call(method: string, path: string, body?: unknown): Promise<Response>;
  private async call(method: string, path: string, body?: unknown, allow404 = false): Promise<Response | null> {
    return withRetry(
      async () => {
        const res = await this.request(method, path, body);
        if (res.ok) return res;
        if (allow404 && res.status === 404) return null;
        const detail = (await res.text().catch(() => "")).slice(0, 300);
        const headers: Record<string, string> = {};
        res.headers.forEach((value, key) => (headers[key] = value));
        throw providerErrorFromHttp(
          res.status,
          headers,
          `Gitea answered ${res.status}${detail ? `: ${detail}` : ""}`,
          Date.now(),
        );
      },
      this.opts.retry ?? DEFAULT_RETRY_POLICY,
      this.opts.retryEnv ?? systemRetryEnv,
    );
  }

  private async text(method: string, path: string): Promise<string> {
    return (await this.call(method, path)).text();
  }

  private async json<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const text = await (await this.call(method, path, body)).text();
    return (text ? JSON.parse(text) : undefined) as T;
  }
}

function repoPath(repo: RepoRef): string {
  return `/repos/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.name)}`;
}
