import { App } from "@octokit/app";
import { Octokit } from "@octokit/core";
import { paginateRest } from "@octokit/plugin-paginate-rest";
import { providerErrorFromHttp, type HeaderBag } from "../../domain/retry.js";
import { ProviderError } from "../../domain/provider.js";

/** Octokit with pagination; no retry plugin: domain/retry.ts decides what is retried. */
export const GitHubOctokit = Octokit.plugin(paginateRest);
export type GitHubOctokit = InstanceType<typeof GitHubOctokit>;

export const GITHUB_API_URL = "https://api.github.com";

/** A GitHub App's credentials, as the connection stores them. */
export interface GitHubAppCredentials {
  appId: string;
  /** The App's private key (PEM, PKCS#1 as GitHub issues it, or PKCS#8). */
  privateKey: string;
  /** github.com: https://api.github.com (the default); GitHub Enterprise Server: https://HOST/api/v3. */
  apiBaseUrl?: string;
}

const USER_AGENT = "verdict-integrations";

/** An unauthenticated client (the manifest's code conversion needs no credential). */
export function gitHubOctokit(apiBaseUrl = GITHUB_API_URL, fetchFn?: typeof fetch): GitHubOctokit {
  return new GitHubOctokit({
    baseUrl: trimSlash(apiBaseUrl),
    userAgent: USER_AGENT,
    ...(fetchFn ? { request: { fetch: fetchFn } } : {}),
  });
}

/**
 * The App: @octokit/auth-app signs its JWT with the private key and mints (and caches until
 * shortly before they expire) installation tokens from it.
 */
export type GitHubApp = App<{ Octokit: typeof GitHubOctokit }>;

export function gitHubApp(credentials: GitHubAppCredentials, fetchOrTimeoutMs?: typeof fetch | number): GitHubApp {
  const fetchFn = typeof fetchOrTimeoutMs === "number" ? withDeadline(fetchOrTimeoutMs) : fetchOrTimeoutMs;
  return new App({
    appId: credentials.appId,
    privateKey: credentials.privateKey,
    Octokit: GitHubOctokit.defaults({
      baseUrl: trimSlash(credentials.apiBaseUrl ?? GITHUB_API_URL),
      userAgent: USER_AGENT,
      ...(fetchFn ? { request: { fetch: fetchFn } } : {}),
    }),
  });
}

/** fetch with a deadline on every call (the token mint and the JWT's calls too). */
function withDeadline(timeoutMs: number): typeof fetch {
  return (input, init) => fetch(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(timeoutMs) });
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

/** Octokit's RequestError (or a network failure) as a ProviderError. */
export function gitHubError(error: unknown, what: string, nowMs: number): ProviderError {
  if (error instanceof ProviderError) return error;
  const failure = error as { status?: unknown; message?: unknown; response?: { headers?: HeaderBag } };
  const status = typeof failure.status === "number" ? failure.status : 0;
  const reason = typeof failure.message === "string" ? failure.message : String(error);
  return providerErrorFromHttp(status, failure.response?.headers ?? {}, `GitHub ${what}: ${reason}`, nowMs);
}
