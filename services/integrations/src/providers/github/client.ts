import type {
  ChangeRef,
  ChangedFile,
  CheckReport,
  ProviderClient,
  ProviderRepository,
  RepoRef,
  ReportHandle,
} from "../../domain/provider.js";
import { ProviderError } from "../../domain/provider.js";
import {
  DEFAULT_RETRY_POLICY,
  systemRetryEnv,
  withRetry,
  type RetryEnv,
  type RetryPolicy,
} from "../../domain/retry.js";
import { addedLines } from "../unifiedDiff.js";
import { checkRunUpdates } from "./checks.js";
import { gitHubApp, gitHubError, type GitHubAppCredentials, type GitHubOctokit } from "./octokit.js";

export interface GitHubClientOptions {
  credentials: GitHubAppCredentials;
  /** The installation of the App on the repository's account (from the installation event). */
  installationId: number;
  retry?: RetryPolicy;
  retryEnv?: RetryEnv;
  now?: () => Date;
}

/** A git commit id that is all zeros: a push that created a branch has no "before". */
const NO_COMMIT = /^0+$/;

/** GitHub's raw file status, mapped to the interface's: "changed" is a mode change. */
const STATUSES: Record<string, ChangedFile["status"]> = {
  added: "added",
  modified: "modified",
  changed: "modified",
  unchanged: "modified",
  renamed: "renamed",
  removed: "removed",
  copied: "copied",
};

interface GitHubFile {
  filename: string;
  status: string;
  previous_filename?: string;
  patch?: string;
}

/**
 * GitHub (github.com or an Enterprise Server) through a GitHub App installation: every call runs
 * with an installation token that @octokit/auth-app mints from the App's JWT, and is retried
 * by domain/retry.ts on rate limits and unavailability.
 */
export class GitHubClient implements ProviderClient {
  readonly kind = "github" as const;
  private octokitPromise: Promise<GitHubOctokit> | undefined;
  private readonly now: () => Date;

  constructor(private readonly options: GitHubClientOptions) {
    this.now = options.now ?? (() => new Date());
  }

  async getRepository(repo: RepoRef): Promise<ProviderRepository> {
    const { data } = await this.call("repository lookup", (octokit) =>
      octokit.request("GET /repos/{owner}/{repo}", { owner: repo.owner, repo: repo.name }),
    );
    return {
      providerRepoId: String(data.id),
      fullName: data.full_name,
      defaultBranch: data.default_branch,
      private: data.private,
    };
  }

  /**
   * A pull request's files (paginated, up to GitHub's 3,000), a push's comparison with its
   * before, or a new branch's head commit. The list of a pull request is GitHub's for its current
   * head: contents are read at change.headSha, so a file that only a later push added reads as
   * missing there, and that later push brings its own event.
   */
  async listChangedFiles(change: ChangeRef): Promise<ChangedFile[]> {
    const { owner, name } = change.repo;
    const files: GitHubFile[] = await this.call("changed files", async (octokit) => {
      if (change.pullNumber !== undefined) {
        return octokit.paginate("GET /repos/{owner}/{repo}/pulls/{pull_number}/files", {
          owner,
          repo: name,
          pull_number: change.pullNumber,
          per_page: 100,
        });
      }
      if (change.baseSha !== undefined && !NO_COMMIT.test(change.baseSha)) {
        const { data } = await octokit.request("GET /repos/{owner}/{repo}/compare/{basehead}", {
          owner,
          repo: name,
          basehead: `${change.baseSha}...${change.headSha}`,
        });
        return data.files ?? [];
      }
      const { data } = await octokit.request("GET /repos/{owner}/{repo}/commits/{ref}", {
        owner,
        repo: name,
        ref: change.headSha,
      });
      return data.files ?? [];
    });
    return files.map((file) => ({
      path: file.filename,
      status: STATUSES[file.status] ?? "modified",
      ...(file.previous_filename === undefined ? {} : { previousPath: file.previous_filename }),
      ...(file.patch === undefined ? {} : { addedLines: addedLines(file.patch) }),
    }));
  }

  /** The contents API answers files up to 1 MB inline; a larger one (to 100 MB) is read as its blob. */
  async getFileContent(repo: RepoRef, path: string, ref: string): Promise<Uint8Array | null> {
    try {
      return await this.call("file contents", async (octokit) => {
        const { data } = await octokit.request("GET /repos/{owner}/{repo}/contents/{path}", {
          owner: repo.owner,
          repo: repo.name,
          path,
          ref,
        });
        if (Array.isArray(data) || data.type !== "file") return null;
        if ("content" in data && data.encoding === "base64") return new Uint8Array(Buffer.from(data.content, "base64"));
        const blob = await octokit.request("GET /repos/{owner}/{repo}/git/blobs/{file_sha}", {
          owner: repo.owner,
          repo: repo.name,
          file_sha: data.sha,
        });
        return new Uint8Array(Buffer.from(blob.data.content, "base64"));
      });
    } catch (error) {
      if (error instanceof ProviderError && error.code === "not_found") return null;
      throw error;
    }
  }

  async startReport(change: ChangeRef, name: string): Promise<ReportHandle> {
    const { data } = await this.call("check run creation", (octokit) =>
      octokit.request("POST /repos/{owner}/{repo}/check-runs", {
        owner: change.repo.owner,
        repo: change.repo.name,
        name,
        head_sha: change.headSha,
        status: "in_progress",
        started_at: this.now().toISOString(),
      }),
    );
    return { id: String(data.id) };
  }

  async completeReport(change: ChangeRef, handle: ReportHandle, report: CheckReport): Promise<void> {
    const checkRunId = Number(handle.id);
    if (!Number.isSafeInteger(checkRunId)) throw new ProviderError("invalid", `not a check run id: ${handle.id}`);
    for (const update of checkRunUpdates(report, this.now())) {
      await this.call("check run update", (octokit) =>
        octokit.request("PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}", {
          owner: change.repo.owner,
          repo: change.repo.name,
          check_run_id: checkRunId,
          ...update,
        }),
      );
    }
  }

  private installation(): Promise<GitHubOctokit> {
    this.octokitPromise ??= gitHubApp(this.options.credentials).getInstallationOctokit(this.options.installationId);
    return this.octokitPromise;
  }

  private call<T>(what: string, fn: (octokit: GitHubOctokit) => Promise<T>): Promise<T> {
    return withRetry(
      async () => {
        try {
          return await fn(await this.installation());
        } catch (error) {
          throw gitHubError(error, what, this.now().getTime());
        }
      },
      this.options.retry ?? DEFAULT_RETRY_POLICY,
      this.options.retryEnv ?? systemRetryEnv,
    );
  }
}
