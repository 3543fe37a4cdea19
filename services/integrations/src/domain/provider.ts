/** What the integrations service needs from a hosting provider (GitHub, GitLab, Gitea/Forgejo). */
export type ProviderKind = "github" | "gitlab" | "gitea";

/** A repository as named in its provider: GitLab's nested groups go whole into owner ("group/sub"). */
export interface RepoRef {
  owner: string;
  name: string;
}

/** What the provider says about a repository; providerRepoId is stable across renames and transfers. */
export interface ProviderRepository {
  providerRepoId: string;
  fullName: string;
  defaultBranch: string;
  private: boolean;
}

/** One file of a change, as the provider lists it. */
export interface ChangedFile {
  path: string;
  status: "added" | "modified" | "renamed" | "removed" | "copied";
  previousPath?: string;
  /** 1-based line numbers of the new file that the change added, when the provider's diff gives them. */
  addedLines?: number[];
}

/** A change to evaluate: a pull/merge request (pullNumber) or a push (baseSha = the push's before). */
export interface ChangeRef {
  repo: RepoRef;
  headSha: string;
  baseSha?: string;
  pullNumber?: number;
}

/** One finding to show on a line. message and title never hold a secret value whole. */
export interface Annotation {
  path: string;
  line: number;
  endLine?: number;
  level: "failure" | "warning" | "notice";
  title: string;
  message: string;
  fingerprint: string;
}

/** What is posted back for a change. */
export interface CheckReport {
  state: "pending" | "success" | "failure" | "neutral" | "error";
  title: string;
  summary: string;
  detailsUrl?: string;
  annotations: Annotation[];
}

/** The provider's handle on a started report (a check run id, a status context, a note id). */
export interface ReportHandle {
  id: string;
}

/**
 * When the connection's token expires: expires (at expiresAt), renewed (a GitHub App's installation
 * tokens, minted again before they expire; expiresAt the one in use, null before one was minted),
 * none (it does not expire), unknown (the provider did not say).
 */
export interface TokenExpiry {
  kind: "expires" | "renewed" | "none" | "unknown";
  expiresAt: string | null;
}

export interface ProviderClient {
  readonly kind: ProviderKind;
  /** Throws ProviderError("not_found" | "forbidden" | "unauthorized" | ...). */
  getRepository(repo: RepoRef): Promise<ProviderRepository>;
  listChangedFiles(change: ChangeRef): Promise<ChangedFile[]>;
  /** When the connection's token expires, as the provider says (throws ProviderError("unauthorized") for a refused one). */
  tokenExpiry(): Promise<TokenExpiry>;
  /** The file's bytes at ref, or null when it does not exist there. */
  getFileContent(repo: RepoRef, path: string, ref: string): Promise<Uint8Array | null>;
  /** Marks the change as being checked (check run in progress, pending status). */
  startReport(change: ChangeRef, name: string): Promise<ReportHandle>;
  /** Completes it; a provider with line comments posts them here, updating rather than duplicating. */
  completeReport(change: ChangeRef, handle: ReportHandle, report: CheckReport): Promise<void>;
  /**
   * Shows the change as still being checked after a provider failure ("pending, retrying"),
   * where the provider has a place for it (a commit status); absent where it has none.
   */
  reportRetrying?(change: ChangeRef, name: string, reason: string): Promise<void>;
  /**
   * Ends a started report that will not be completed (a newer head superseded the change), where
   * the provider would otherwise show it running for ever (a check run); absent where it would not.
   */
  cancelReport?(change: ChangeRef, handle: ReportHandle, reason: string): Promise<void>;
}

export type InboundEvent =
  | {
      kind: "pull_request";
      action: "opened" | "synchronize" | "reopened" | "closed" | "other";
      deliveryId: string;
      repo: RepoRef;
      providerRepoId: string;
      pullNumber: number;
      headSha: string;
      baseSha: string;
      fromFork: boolean;
      installationId?: string;
    }
  | {
      kind: "push";
      deliveryId: string;
      repo: RepoRef;
      providerRepoId: string;
      ref: string;
      before: string;
      after: string;
      forced: boolean;
      installationId?: string;
    }
  | {
      kind: "rerun";
      deliveryId: string;
      repo: RepoRef;
      providerRepoId: string;
      headSha: string;
      pullNumber?: number;
      installationId?: string;
    }
  | {
      /** The repository renamed, or transferred to another owner: repo is its new name. */
      kind: "repository";
      action: "renamed" | "transferred";
      deliveryId: string;
      repo: RepoRef;
      providerRepoId: string;
      installationId?: string;
    }
  | { kind: "ping"; deliveryId: string }
  | { kind: "ignored"; deliveryId: string; reason: string };

/** Checks and reads one provider's inbound webhook deliveries. */
export interface InboundVerifier {
  readonly kind: ProviderKind;
  /** Constant-time check of the signature or token against the raw body, before any parsing. */
  verify(headers: Record<string, string | undefined>, rawBody: Buffer, secret: string): Promise<boolean>;
  /** Only called after verify() said yes; throws ProviderError("invalid") on a malformed payload. */
  parse(headers: Record<string, string | undefined>, rawBody: Buffer): InboundEvent;
}

export type ProviderErrorCode =
  | "not_found"
  | "forbidden"
  | "unauthorized"
  | "rate_limited"
  | "unavailable"
  | "invalid";

export class ProviderError extends Error {
  constructor(
    readonly code: ProviderErrorCode,
    message: string,
    /** When the provider said how long to wait (Retry-After, rate-limit reset). */
    readonly retryAfterMs?: number,
    readonly status?: number,
  ) {
    super(message);
    this.name = "ProviderError";
  }
}
