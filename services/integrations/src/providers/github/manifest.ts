import { gitHubError, gitHubOctokit, GITHUB_API_URL, type GitHubAppCredentials } from "./octokit.js";

/**
 * The one-click set-up: Verdict offers GitHub a GitHub App manifest (GitHub's "Registering a
 * GitHub App from a manifest"); the user confirms the App on GitHub, GitHub redirects back with a
 * one-time code (valid one hour), and the code's conversion answers the new App's id, private
 * key and webhook secret, which become the connection.
 */

/** What the App may do: write checks; read code, pull requests and metadata. Nothing else. */
export const GITHUB_APP_PERMISSIONS = {
  checks: "write",
  contents: "read",
  pull_requests: "read",
  metadata: "read",
} as const;

/**
 * The deliveries Verdict acts on ("Re-run" arrives as check_run / check_suite rerequested;
 * repository renamed and transferred, under the metadata permission).
 */
export const GITHUB_APP_EVENTS = ["pull_request", "push", "check_run", "check_suite", "repository"] as const;

export interface GitHubAppManifest {
  name: string;
  url: string;
  description: string;
  hook_attributes: { url: string; active: boolean };
  redirect_url: string;
  setup_url?: string;
  public: boolean;
  default_permissions: typeof GITHUB_APP_PERMISSIONS;
  default_events: Array<(typeof GITHUB_APP_EVENTS)[number]>;
}

export interface ManifestOptions {
  /** The App's name on GitHub (unique there). */
  name: string;
  /** Verdict's public URL (its home page on the App). */
  publicUrl: string;
  /** Where GitHub delivers events: Verdict's /v1/integrations/github/events. */
  webhookUrl: string;
  /** Where GitHub sends the user back with ?code=...&state=... after creating the App. */
  redirectUrl: string;
  /** Where GitHub sends the user after installing the App (optional). */
  setupUrl?: string;
}

export function gitHubAppManifest(options: ManifestOptions): GitHubAppManifest {
  return {
    name: options.name,
    url: options.publicUrl,
    description: "Verdict checks every pull request against the organization's code policies.",
    hook_attributes: { url: options.webhookUrl, active: true },
    redirect_url: options.redirectUrl,
    ...(options.setupUrl === undefined ? {} : { setup_url: options.setupUrl }),
    public: false,
    default_permissions: GITHUB_APP_PERMISSIONS,
    default_events: [...GITHUB_APP_EVENTS],
  };
}

/**
 * Where the manifest is posted (a form of the browser's: the gateway serves the page,
 * services/gateway/src/routes/githubApp.ts): github.com's (or an Enterprise Server's, webBaseUrl
 * https://HOST) new-App page, for the user's account or an organization's; state comes back with
 * the code and must be checked by the caller (it ties the redirect to the user who started it).
 */
export function manifestFormAction(
  state: string,
  options: { webBaseUrl?: string; organization?: string } = {},
): string {
  const base = (options.webBaseUrl ?? "https://github.com").replace(/\/+$/, "");
  const path =
    options.organization === undefined
      ? "/settings/apps/new"
      : `/organizations/${encodeURIComponent(options.organization)}/settings/apps/new`;
  return `${base}${path}?state=${encodeURIComponent(state)}`;
}

/** What the conversion answers: the connection's credentials, and where the App lives. */
export interface ConvertedApp extends Required<GitHubAppCredentials> {
  slug: string;
  htmlUrl: string;
  owner: string;
  webhookSecret: string;
  clientId: string;
  clientSecret: string;
}

/**
 * Exchanges the code GitHub redirected with for the App's credentials (single use; not retried).
 * fetchFn: the service's guarded fetch (the SSRF guard, a deadline, a cap on the answer).
 */
export async function convertManifestCode(
  code: string,
  apiBaseUrl = GITHUB_API_URL,
  fetchFn?: typeof fetch,
): Promise<ConvertedApp> {
  try {
    const { data } = await gitHubOctokit(apiBaseUrl, fetchFn).request("POST /app-manifests/{code}/conversions", {
      code,
    });
    const owner = data.owner && "login" in data.owner ? data.owner.login : (data.owner?.name ?? "");
    return {
      appId: String(data.id),
      slug: data.slug ?? "",
      htmlUrl: data.html_url,
      owner,
      privateKey: data.pem,
      webhookSecret: data.webhook_secret ?? "",
      clientId: data.client_id,
      clientSecret: data.client_secret,
      apiBaseUrl,
    };
  } catch (error) {
    throw gitHubError(error, "manifest conversion", Date.now());
  }
}
