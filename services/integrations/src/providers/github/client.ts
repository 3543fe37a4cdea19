import type {
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
  systemRetryEnv,
  withRetry,
  type RetryEnv,
  type RetryPolicy,
} from "../../domain/retry.js";
import { addedLines } from "../unifiedDiff.js";
import { checkRunUpdates } from "./checks.js";
import { gitHubApp, gitHubError, type GitHubApp, type GitHubAppCredentials, type GitHubOctokit } from "./octokit.js";

export interface GitHubClientOptions {
  credentials: GitHubAppCredentials;
  /**
   * The installation of the App on the repository's account, as an inbound event names it;
   * without it the client asks GitHub for the repository's installation (with the App's JWT).
   */
  installationId?: number;
  /** Deadline of one API call. */
  timeoutMs?: number;
  /**
   * The App, shared by the clients of one connection so that its installation tokens are minted
   * once and reused until shortly before they expire; made from the credentials when absent.
   */
  app?: GitHubApp;
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
  private readonly app: GitHubApp;
  /** Installation clients by installation id; the installation of a repository by its full name. */
  private readonly installations = new Map<number, Promise<GitHubOctokit>>();
  private readonly installationOf = new Map<string, Promise<number>>();
  private readonly now: () => Date;

  constructor(private readonly options: GitHubClientOptions) {
    this.now = options.now ?? (() => new Date());
    this.app = options.app ?? gitHubApp(options.credentials, options.timeoutMs);
  }

  async getRepository(repo: RepoRef): Promise<ProviderRepository> {
    const { data } = await this.call(repo, "repository lookup", (octokit) =>
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
    const files: GitHubFile[] = await this.call(change.repo, "changed files", async (octokit) => {
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

  /**
   * The App's private key does not expire; the installation tokens minted from it last an hour and
   * @octokit/auth-app mints another shortly before. The expiry is the token it holds for the
   * client's installation (minted now if it holds none); null without an installation.
   */
  async tokenExpiry(): Promise<TokenExpiry> {
    const installationId = this.options.installationId;
    if (installationId === undefined) return { kind: "renewed", expiresAt: null };
    const auth = await this.retried(
      "installation token",
      async () => (await this.app.octokit.auth({ type: "installation", installationId })) as { expiresAt?: string },
    );
    return { kind: "renewed", expiresAt: auth.expiresAt ?? null };
  }

  /** The contents API answers files up to 1 MB inline; a larger one (to 100 MB) is read as its blob. */
  async getFileContent(repo: RepoRef, path: string, ref: string): Promise<Uint8Array | null> {
    try {
      return await this.call(repo, "file contents", async (octokit) => {
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
    const { data } = await this.call(change.repo, "check run creation", (octokit) =>
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
      await this.call(change.repo, "check run update", (octokit) =>
        octokit.request("PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}", {
          owner: change.repo.owner,
          repo: change.repo.name,
          check_run_id: checkRunId,
          ...update,
        }),
      );
    }
  }

  /** A check run that will not be completed (superseded by a newer head): completed as cancelled. */
  async cancelReport(change: ChangeRef, handle: ReportHandle, reason: string): Promise<void> {
    await this.call(change.repo, "check run update", (octokit) =>
      octokit.request("PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}", {
        owner: change.repo.owner,
        repo: change.repo.name,
        check_run_id: Number(handle.id),
        status: "completed",
        conclusion: "cancelled",
        completed_at: this.now().toISOString(),
        output: { title: "Verdict: superseded", summary: reason },
      }),
    );
  }

  /**
   * Shows the check as still running after a failure that is being retried: a check run in
   * progress whose output says so (GitHub shows the latest run of a name on a commit).
   */
  async reportRetrying(change: ChangeRef, name: string, reason: string): Promise<void> {
    const [update] = checkRunUpdates(
      { state: "pending", title: `Verdict: pending, retrying (${reason})`, summary: reason, annotations: [] },
      this.now(),
    );
    await this.call(change.repo, "check run creation", (octokit) =>
      octokit.request("POST /repos/{owner}/{repo}/check-runs", {
        owner: change.repo.owner,
        repo: change.repo.name,
        name,
        head_sha: change.headSha,
        started_at: this.now().toISOString(),
        status: "in_progress",
        output: update!.output,
      }),
    );
  }

  /** The installation's client for a repository: the event's installation, else the repository's. */
  private installation(repo: RepoRef): Promise<GitHubOctokit> {
    const id =
      this.options.installationId !== undefined
        ? Promise.resolve(this.options.installationId)
        : this.lookUpInstallation(repo);
    return id.then((installationId) => {
      let octokit = this.installations.get(installationId);
      if (octokit === undefined) {
        octokit = this.app.getInstallationOctokit(installationId);
        octokit.catch(() => this.installations.delete(installationId));
        this.installations.set(installationId, octokit);
      }
      return octokit;
    });
  }

  /** GET /repos/{owner}/{repo}/installation with the App's JWT: 404 when the App is not installed there. */
  private lookUpInstallation(repo: RepoRef): Promise<number> {
    const key = `${repo.owner}/${repo.name}`.toLowerCase();
    let found = this.installationOf.get(key);
    if (found === undefined) {
      found = this.app.octokit
        .request("GET /repos/{owner}/{repo}/installation", { owner: repo.owner, repo: repo.name })
        .then(({ data }) => data.id);
      found.catch(() => this.installationOf.delete(key));
      this.installationOf.set(key, found);
    }
    return found;
  }

  private call<T>(repo: RepoRef, what: string, fn: (octokit: GitHubOctokit) => Promise<T>): Promise<T> {
    return this.retried(what, async () => fn(await this.installation(repo)));
  }

  /** fn retried by domain/retry.ts, its failure as a ProviderError. */
  private retried<T>(what: string, fn: () => Promise<T>): Promise<T> {
    return withRetry(
      async () => {
        try {
          return await fn();
        } catch (error) {
          throw gitHubError(error, what, this.now().getTime());
        }
      },
      this.options.retry ?? DEFAULT_RETRY_POLICY,
      this.options.retryEnv ?? systemRetryEnv,
    );
  }
}
