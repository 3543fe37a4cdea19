// The adapter behind live verification: it asks a provider's documented "who am I" endpoint
// whether a credential works. Every call goes through the egress guard (@verdict/kit's Egress: no
// loopback, private or metadata address unless the operator allows it) to a host on the allowlist
// (the providers' endpoints, nothing else), with a short deadline, no redirect followed, and at
// most `perMinute` calls for one organization. The credential is sent to its provider only and
// never logged.
import aws4 from "aws4";
import { Egress, type LiveVerificationProvider, type Logger } from "@verdict/kit";
import {
  PerOrganizationRate,
  type AwsCredential,
  type Credential,
  type TokenCredential,
} from "./domain/liveVerification.js";

/** What a provider said of a credential. */
export type ProviderAnswer = "live" | "revoked" | "unknown";

export interface LiveVerifierOptions {
  /** Where STS is asked (GetCallerIdentity); default AWS's global endpoint. */
  awsStsUrl?: string;
  /** GitHub's REST API (GET /user); default api.github.com. */
  githubApiUrl?: string;
  /** Slack's Web API (auth.test); default slack.com/api. */
  slackApiUrl?: string;
  /** Stripe's API (GET /v1/balance); default api.stripe.com. */
  stripeApiUrl?: string;
  /** The deadline of one call (resolution, connection, answer). */
  timeoutMs: number;
  /** Calls one organization may make per minute; past it a credential is `unknown`. */
  perMinute: number;
  /** Private addresses the endpoints may be at (tests: a local STS-compatible server). */
  allowPrivate: boolean | readonly string[];
  logger: Logger;
  /** Milliseconds now (tests move it). */
  now?: () => number;
}

export const AWS_STS_URL = "https://sts.amazonaws.com/";
export const GITHUB_API_URL = "https://api.github.com/";
export const SLACK_API_URL = "https://slack.com/api/";
export const STRIPE_API_URL = "https://api.stripe.com/";
export const DEFAULT_LIVE_VERIFICATION_TIMEOUT_MS = 5000;
export const DEFAULT_LIVE_VERIFICATION_PER_MINUTE = 30;
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * AWS's error codes for credentials it does not accept (the STS API reference's common errors):
 * an unknown or deleted key id, a wrong secret for it, an expired session.
 */
const AWS_REFUSED = new Set(["InvalidClientTokenId", "SignatureDoesNotMatch", "ExpiredToken"]);

/**
 * Slack's `auth.test` errors (its Web API documentation) that say the token itself is not
 * accepted: unknown or malformed, revoked, expired, or its account deactivated.
 */
const SLACK_REFUSED = new Set(["invalid_auth", "not_authed", "token_revoked", "token_expired", "account_inactive"]);

export class LiveVerifier {
  private readonly egress: Egress;
  private readonly rate: PerOrganizationRate;
  private readonly sts: URL;
  private readonly github: URL;
  private readonly slack: URL;
  private readonly stripe: URL;
  /** The hosts calls may go to: each provider's endpoint. */
  readonly allowlist: ReadonlySet<string>;

  constructor(private readonly opts: LiveVerifierOptions) {
    this.egress = new Egress({ allowPrivate: opts.allowPrivate });
    this.rate = new PerOrganizationRate(opts.perMinute, opts.now);
    this.sts = new URL(opts.awsStsUrl ?? AWS_STS_URL);
    this.github = new URL("user", withSlash(opts.githubApiUrl ?? GITHUB_API_URL));
    this.slack = new URL("auth.test", withSlash(opts.slackApiUrl ?? SLACK_API_URL));
    this.stripe = new URL("v1/balance", withSlash(opts.stripeApiUrl ?? STRIPE_API_URL));
    this.allowlist = new Set([this.sts.host, this.github.host, this.slack.host, this.stripe.host]);
  }

  /** Whether the organization may ask one more provider now (each call counts). */
  admit(organizationId: string): boolean {
    return this.rate.take(organizationId);
  }

  async verify(credential: Credential, signal?: AbortSignal): Promise<ProviderAnswer> {
    const provider: LiveVerificationProvider = credential.provider;
    try {
      switch (credential.provider) {
        case "aws":
          return await this.aws(credential, signal);
        case "github":
          return await this.gitHub(credential, signal);
        case "slack":
          return await this.slackAuthTest(credential, signal);
        case "stripe":
          return await this.stripeBalance(credential, signal);
      }
    } catch (err) {
      // The error says what failed (timeout, refused address), never the credential.
      this.opts.logger.warn(
        { provider, reason: err instanceof Error ? err.message : String(err) },
        "live verification: no answer from the provider",
      );
      return "unknown";
    }
  }

  /** STS GetCallerIdentity, signed with Signature Version 4: it needs no permission and changes nothing. */
  private async aws(credential: AwsCredential, signal?: AbortSignal): Promise<ProviderAnswer> {
    const body = "Action=GetCallerIdentity&Version=2011-06-15";
    const signed = aws4.sign(
      {
        host: this.sts.host,
        path: this.sts.pathname,
        method: "POST",
        service: "sts",
        region: "us-east-1",
        body,
        headers: { "content-type": "application/x-www-form-urlencoded; charset=utf-8" },
      },
      { accessKeyId: credential.accessKeyId, secretAccessKey: credential.secretAccessKey },
    );
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(signed.headers ?? {})) headers[name] = String(value);
    const res = await this.call(this.sts, { method: "POST", headers, body, signal });
    if (res.status === 200) return "live";
    const code = /<Code>([^<]{1,100})<\/Code>/.exec(res.body)?.[1];
    return res.status === 403 && code && AWS_REFUSED.has(code) ? "revoked" : "unknown";
  }

  /** GET /user with the token: 200 for a token that works, 401 "Bad credentials" for one that does not. */
  private async gitHub(credential: TokenCredential, signal?: AbortSignal): Promise<ProviderAnswer> {
    const res = await this.call(this.github, {
      method: "GET",
      headers: {
        authorization: `Bearer ${credential.token}`,
        accept: "application/vnd.github+json",
        "x-github-api-version": "2022-11-28",
        "user-agent": "Verdict-live-verification",
      },
      signal,
    });
    return res.status === 200 ? "live" : res.status === 401 ? "revoked" : "unknown";
  }

  /**
   * Slack's `auth.test` with the token as a bearer token: it says whom the token is for and
   * changes nothing. Slack answers HTTP 200 either way; `ok` and `error` in the JSON say which.
   */
  private async slackAuthTest(credential: TokenCredential, signal?: AbortSignal): Promise<ProviderAnswer> {
    const res = await this.call(this.slack, {
      method: "POST",
      headers: {
        authorization: `Bearer ${credential.token}`,
        "content-type": "application/x-www-form-urlencoded",
        "user-agent": "Verdict-live-verification",
      },
      body: "",
      signal,
    });
    if (res.status !== 200) return "unknown";
    const answer = jsonObject(res.body);
    if (answer?.ok === true) return "live";
    return answer?.ok === false && SLACK_REFUSED.has(String(answer.error)) ? "revoked" : "unknown";
  }

  /**
   * Stripe's `GET /v1/balance`, which reads and changes nothing else: 200 for a key that works;
   * 403 for a restricted key that works but may not read the balance (Stripe's documented
   * meaning of 403: the key lacks the permission, so it was accepted); 401 for a key Stripe does
   * not accept (unknown, rolled or deleted).
   */
  private async stripeBalance(credential: TokenCredential, signal?: AbortSignal): Promise<ProviderAnswer> {
    const res = await this.call(this.stripe, {
      method: "GET",
      headers: { authorization: `Bearer ${credential.token}`, "user-agent": "Verdict-live-verification" },
      signal,
    });
    return res.status === 200 || res.status === 403 ? "live" : res.status === 401 ? "revoked" : "unknown";
  }

  private async call(
    url: URL,
    req: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal | undefined },
  ): Promise<{ status: number; body: string }> {
    if (!this.allowlist.has(url.host)) throw new Error(`${url.host} is not on the live verification allowlist`);
    const res = await this.egress.request({
      url: url.href,
      method: req.method,
      headers: req.headers,
      ...(req.body !== undefined ? { body: req.body } : {}),
      timeoutMs: this.opts.timeoutMs,
      maxResponseBytes: MAX_ANSWER_BYTES,
      oversize: "truncate",
      maxRedirects: 0,
      ...(req.signal ? { signal: req.signal } : {}),
    });
    return { status: res.status, body: res.body.toString("utf8") };
  }
}

/** A JSON object's fields, or undefined for anything else (an HTML error page, a truncated answer). */
function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A base URL ending in a slash, so a relative path is appended to it. */
function withSlash(url: string): string {
  return url.endsWith("/") ? url : `${url}/`;
}
