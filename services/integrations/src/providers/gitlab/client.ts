import type {
  Annotation,
  ChangeRef,
  ChangedFile,
  CheckReport,
  ProviderClient,
  ProviderRepository,
  RepoRef,
  ReportHandle,
  TokenExpiry,
} from "../../domain/provider.js";
import { ProviderError } from "../../domain/provider.js";
import {
  DEFAULT_RETRY_POLICY,
  providerErrorFromHttp,
  systemRetryEnv,
  withRetry,
  type RetryEnv,
  type RetryPolicy,
} from "../../domain/retry.js";
import { addedLines } from "../unifiedDiff.js";

/**
 * GitLab (gitlab.com or self-managed) through its REST API v4, with a thin client on fetch
 * rather than @gitbeaker/rest: Verdict calls nine operations, and needs each answer's status
 * and headers (Retry-After, RateLimit-Reset) for domain/retry.ts, which a small client gives
 * directly. Authenticated with an access token (personal, project or group) in PRIVATE-TOKEN.
 */
export interface GitLabClientOptions {
  /** https://gitlab.com (the default) or a self-managed instance's root URL. */
  baseUrl?: string;
  token: string;
  retry?: RetryPolicy;
  retryEnv?: RetryEnv;
  now?: () => Date;
  fetch?: typeof fetch;
}

interface GitLabDiff {
  old_path: string;
  new_path: string;
  new_file: boolean;
  renamed_file: boolean;
  deleted_file: boolean;
  diff?: string;
}

interface GitLabNote {
  id: number;
  body: string;
}

/** GitLab's commit status states: it has no neutral, and canceled never reads as a pass. */
const STATES: Record<CheckReport["state"], string> = {
  pending: "running",
  success: "success",
  failure: "failed",
  neutral: "canceled",
  error: "failed",
};

const NO_COMMIT = /^0+$/;
/** GitLab's commit status description is at most 255 characters. */
const DESCRIPTION_MAX = 255;
/** The findings listed in the merge request note (the rest are counted, and in Verdict). */
const NOTE_FINDINGS_MAX = 200;

export class GitLabClient implements ProviderClient {
  readonly kind = "gitlab" as const;
  private readonly api: string;
  private readonly now: () => Date;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: GitLabClientOptions) {
    this.api = `${(options.baseUrl ?? "https://gitlab.com").replace(/\/+$/, "")}/api/v4`;
    this.now = options.now ?? (() => new Date());
    this.fetch = options.fetch ?? fetch;
  }

  async getRepository(repo: RepoRef): Promise<ProviderRepository> {
    const project = (await this.json("project lookup", "GET", project_(repo))) as {
      id: number;
      path_with_namespace: string;
      default_branch: string | null;
      visibility: string;
    };
    return {
      providerRepoId: String(project.id),
      fullName: project.path_with_namespace,
      defaultBranch: project.default_branch ?? "",
      private: project.visibility !== "public",
    };
  }

  /** A merge request's diffs (paginated), a push's comparison with its before, or a new branch's commit. */
  async listChangedFiles(change: ChangeRef): Promise<ChangedFile[]> {
    const project = project_(change.repo);
    let diffs: GitLabDiff[];
    if (change.pullNumber !== undefined) {
      diffs = await this.pages<GitLabDiff>(
        "merge request diffs",
        `${project}/merge_requests/${change.pullNumber}/diffs`,
      );
    } else if (change.baseSha !== undefined && !NO_COMMIT.test(change.baseSha)) {
      const query = new URLSearchParams({ from: change.baseSha, to: change.headSha, straight: "false" });
      diffs = (
        (await this.json("comparison", "GET", `${project}/repository/compare?${query}`)) as { diffs: GitLabDiff[] }
      ).diffs;
    } else {
      diffs = await this.pages<GitLabDiff>("commit diff", `${project}/repository/commits/${change.headSha}/diff`);
    }
    return diffs.map((d) => ({
      path: d.new_path,
      status: d.new_file ? "added" : d.deleted_file ? "removed" : d.renamed_file ? "renamed" : "modified",
      ...(d.renamed_file ? { previousPath: d.old_path } : {}),
      ...(d.diff === undefined ? {} : { addedLines: addedLines(d.diff) }),
    }));
  }

  /**
   * The access token's expiry date (GET /personal_access_tokens/self answers for personal, project
   * and group access tokens): GitLab ends a token at 00:00 UTC on its expires_at date. A token
   * that endpoint does not know (an older GitLab, another kind of token) is unknown.
   */
  async tokenExpiry(): Promise<TokenExpiry> {
    try {
      const self = (await this.json("token lookup", "GET", "/personal_access_tokens/self")) as {
        expires_at?: string | null;
      };
      const date = self.expires_at ?? null;
      if (date === null) return { kind: "none", expiresAt: null };
      if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return { kind: "unknown", expiresAt: null };
      return { kind: "expires", expiresAt: `${date}T00:00:00.000Z` };
    } catch (error) {
      if (error instanceof ProviderError && (error.code === "not_found" || error.code === "forbidden"))
        return { kind: "unknown", expiresAt: null };
      throw error;
    }
  }

  async getFileContent(repo: RepoRef, path: string, ref: string): Promise<Uint8Array | null> {
    const url = `${project_(repo)}/repository/files/${encodeURIComponent(path)}/raw?${new URLSearchParams({ ref })}`;
    try {
      const answer = await this.request("file contents", "GET", url);
      return new Uint8Array(await answer.arrayBuffer());
    } catch (error) {
      if (error instanceof ProviderError && error.code === "not_found") return null;
      throw error;
    }
  }

  /**
   * A running commit status named `name`; the handle is that name (GitLab keys statuses by sha and
   * name). Already running (a check started again after a provider failure) is as good.
   */
  async startReport(change: ChangeRef, name: string): Promise<ReportHandle> {
    await unlessAlready(this.status(change, name, "running", "Verdict is checking this change", undefined));
    return { id: name };
  }

  /**
   * "pending, retrying" where no status shows the change yet. GitLab moves a running status to
   * no other unfinished state (400 "Cannot transition status via :enqueue from :running"): a
   * status already running stays so, which still shows the change as being checked.
   */
  async reportRetrying(change: ChangeRef, name: string, reason: string): Promise<void> {
    await unlessAlready(this.status(change, name, "pending", `Verdict: pending, retrying (${reason})`, undefined));
  }

  /**
   * The commit status, then, on a merge request, ONE note: found again by its marker and edited
   * in place, so a later push updates it rather than adding a note per push.
   */
  async completeReport(change: ChangeRef, handle: ReportHandle, report: CheckReport): Promise<void> {
    await this.status(change, handle.id, STATES[report.state], report.title, report.detailsUrl);
    if (change.pullNumber === undefined) return;
    const notes = `${project_(change.repo)}/merge_requests/${change.pullNumber}/notes`;
    const marker = noteMarker(handle.id);
    const body = `${marker}\n${noteBody(report)}`;
    const existing = (await this.pages<GitLabNote>("merge request notes", `${notes}?sort=asc`)).find((n) =>
      n.body.startsWith(marker),
    );
    if (existing === undefined) await this.json("merge request note", "POST", notes, { body });
    else await this.json("merge request note update", "PUT", `${notes}/${existing.id}`, { body });
  }

  private async status(change: ChangeRef, name: string, state: string, description: string, targetUrl?: string) {
    await this.json("commit status", "POST", `${project_(change.repo)}/statuses/${change.headSha}`, {
      state,
      name,
      description:
        description.length <= DESCRIPTION_MAX ? description : `${description.slice(0, DESCRIPTION_MAX - 1)}…`,
      ...(targetUrl === undefined ? {} : { target_url: targetUrl }),
    });
  }

  /** Every page of a list, following GitLab's x-next-page header. */
  private async pages<T>(what: string, path: string): Promise<T[]> {
    const all: T[] = [];
    for (let page = "1"; page !== "";) {
      const separator = path.includes("?") ? "&" : "?";
      const answer = await this.request(what, "GET", `${path}${separator}per_page=100&page=${page}`);
      all.push(...((await answer.json()) as T[]));
      page = answer.headers.get("x-next-page") ?? "";
    }
    return all;
  }

  private async json(what: string, method: string, path: string, body?: unknown): Promise<unknown> {
    return (await this.request(what, method, path, body)).json();
  }

  private request(what: string, method: string, path: string, body?: unknown): Promise<Response> {
    return withRetry(
      async () => {
        let answer: Response;
        try {
          answer = await this.fetch(`${this.api}${path}`, {
            method,
            headers: {
              "PRIVATE-TOKEN": this.options.token,
              accept: "application/json",
              ...(body === undefined ? {} : { "content-type": "application/json" }),
            },
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
            // The token is a plain header, which fetch would carry to another host on a redirect.
            redirect: "error",
          });
        } catch (error) {
          throw new ProviderError("unavailable", `GitLab ${what}: ${(error as Error).message}`);
        }
        if (answer.ok) return answer;
        const text = await answer.text().catch(() => "");
        const headers: Record<string, string> = {};
        answer.headers.forEach((value, key) => (headers[key] = value));
        throw providerErrorFromHttp(
          answer.status,
          headers,
          `GitLab ${what}: ${answer.status} ${text.slice(0, 200)}`,
          this.now().getTime(),
        );
      },
      this.options.retry ?? DEFAULT_RETRY_POLICY,
      this.options.retryEnv ?? systemRetryEnv,
    );
  }
}

/**
 * A status update GitLab refuses because the status is already running or pending ("Cannot
 * transition status via :run from :running"): the change already shows as being checked.
 */
async function unlessAlready(update: Promise<void>): Promise<void> {
  try {
    await update;
  } catch (error) {
    if (error instanceof ProviderError && error.status === 400 && error.message.includes("Cannot transition status"))
      return;
    throw error;
  }
}

/** /projects/:id with the project's full path URL-encoded (GitLab's "namespaced path encoding"). */
function project_(repo: RepoRef): string {
  return `/projects/${encodeURIComponent(`${repo.owner}/${repo.name}`)}`;
}

export function noteMarker(name: string): string {
  return `<!-- verdict-report: ${name.replace(/-->/g, "")} -->`;
}

/** The note's Markdown: title, summary, counts, the link, and the findings by line. */
export function noteBody(report: CheckReport): string {
  const count = (level: Annotation["level"]) => report.annotations.filter((a) => a.level === level).length;
  const lines = [
    `### ${report.title}`,
    "",
    report.summary,
    "",
    `**${count("failure")} failing, ${count("warning")} warnings, ${count("notice")} notices**`,
  ];
  if (report.detailsUrl !== undefined) lines.push("", `[The evaluation in Verdict](${report.detailsUrl})`);
  const shown = report.annotations.slice(0, NOTE_FINDINGS_MAX);
  if (shown.length > 0) {
    lines.push("", "| Level | File | Line | Finding |", "|---|---|---|---|");
    for (const a of shown)
      lines.push(`| ${a.level} | \`${cell(a.path)}\` | ${a.line} | ${cell(a.title)}: ${cell(a.message)} |`);
  }
  if (report.annotations.length > shown.length) {
    lines.push("", `…and ${report.annotations.length - shown.length} more in Verdict.`);
  }
  return lines.join("\n");
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\r?\n/g, " ").replace(/`/g, "'");
}
