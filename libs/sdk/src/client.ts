// A typed client for Verdict's /v1 API. Every call follows the spec's retry guidance
// (retry.ts), errors become VerdictApiError / VerdictConnectionError, and list endpoints with
// cursors are also offered as async iterators.
import { apiErrorFrom, VerdictConnectionError } from "./errors.js";
import { rateLimitFrom, type RateLimitState } from "./rateLimit.js";
import { exchange, type HeaderReader, type HttpAnswer } from "./transport.js";

export type { HeaderReader } from "./transport.js";
import { DEFAULT_RETRY, retryDelay, type RetryPolicy } from "./retry.js";
import type * as T from "./types.js";
import {
  fillPath,
  type Answer,
  type HttpMethod,
  type Operation,
  type PathParams,
  type PathWith,
  type RequestJson,
} from "./operations.js";

export interface ClientOptions {
  /** Where Verdict runs: `http://localhost:8080` (a trailing `/v1` is accepted too). */
  baseUrl: string;
  apiKey?: string;
  retry?: Partial<RetryPolicy>;
  /** Deadline of one attempt. */
  timeoutMs?: number;
  userAgent?: string;
  /** Waits between attempts (tests and callers may shorten it). */
  sleep?: (ms: number) => Promise<void>;
  /** Told before each wait for a retry (a 429's Retry-After, a 5xx or connection backoff), e.g. to show it. */
  onRetry?: (retry: RetryNotice) => void;
}

export interface RetryNotice {
  method: string;
  path: string;
  /** The status that is retried; undefined for a connection failure. */
  status: number | undefined;
  waitMs: number;
  /** 1 for the first retry. */
  retry: number;
}

type Query = Record<string, string | number | boolean | undefined>;

/**
 * A request body already encoded as JSON (UTF-8 bytes): sent as it is, by callers that build
 * large bodies once. Chunks are written in order, as one body, without joining them first.
 */
export class EncodedJson {
  constructor(readonly bytes: Uint8Array | readonly Uint8Array[]) {}
}

export interface RequestOptions {
  query?: Query;
  /** Encoded with JSON.stringify, unless it is an EncodedJson. */
  body?: unknown;
  /** Send without the API key (signed download links). */
  anonymous?: boolean;
}

/** A call of one operation: its path parameters, and a body of the operation's type. */
export interface CallOptions<O> extends Omit<RequestOptions, "body"> {
  path?: PathParams<O>;
  body?: RequestJson<O> | EncodedJson;
}

export interface RawResponse {
  status: number;
  /** Read by name, as fetch's Headers.get. */
  headers: HeaderReader;
  body: Buffer;
}

const sleepMs = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** `http://host:8080/v1/` → `http://host:8080` */
export function normalizeBaseUrl(url: string): string {
  return url.trim().replace(/\/+$/, "").replace(/\/v1$/, "");
}

export class VerdictClient {
  readonly baseUrl: string;
  private readonly apiKey: string | undefined;
  private readonly retry: RetryPolicy;
  private readonly timeoutMs: number;
  private readonly userAgent: string;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly onRetry: ((retry: RetryNotice) => void) | undefined;

  constructor(opts: ClientOptions) {
    this.baseUrl = normalizeBaseUrl(opts.baseUrl);
    this.apiKey = opts.apiKey;
    this.retry = { ...DEFAULT_RETRY, ...opts.retry };
    this.timeoutMs = opts.timeoutMs ?? 60_000;
    this.userAgent = opts.userAgent ?? "verdict-sdk";
    this.sleep = opts.sleep ?? sleepMs;
    this.onRetry = opts.onRetry;
  }

  /** One call with retries; answers the raw response of a success, throws on an error status. */
  async raw(method: string, path: string, opts: RequestOptions = {}): Promise<RawResponse> {
    const url = new URL(path.startsWith("http") ? path : `${this.baseUrl}${path}`);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { "user-agent": this.userAgent, accept: "application/json" };
    if (this.apiKey && !opts.anonymous) headers.authorization = `Bearer ${this.apiKey}`;
    const body =
      opts.body === undefined
        ? undefined
        : opts.body instanceof EncodedJson
          ? opts.body.bytes
          : JSON.stringify(opts.body);
    if (body !== undefined) headers["content-type"] = "application/json";

    for (let retry = 1; ; retry++) {
      let res: HttpAnswer;
      try {
        res = await exchange(url, method, headers, body, this.timeoutMs);
      } catch (err) {
        const wait = retryDelay({ connectionError: true }, retry, this.retry, Math.random());
        if (wait === null) throw new VerdictConnectionError(this.baseUrl, connectionReason(err));
        this.onRetry?.({ method, path, status: undefined, waitMs: wait, retry });
        await this.sleep(wait);
        continue;
      }
      const buf = res.body;
      if (res.status >= 200 && res.status < 300) return { status: res.status, headers: res.headers, body: buf };
      const wait = retryDelay(
        { status: res.status, retryAfter: res.headers.get("retry-after") },
        retry,
        this.retry,
        Math.random(),
      );
      if (wait === null) {
        const text = buf.toString("utf8");
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        throw apiErrorFrom(res.status, parsed, text);
      }
      this.onRetry?.({ method, path, status: res.status, waitMs: wait, retry });
      await this.sleep(wait);
    }
  }

  /** One JSON call; 204 answers undefined. */
  async request<R>(method: string, path: string, opts: RequestOptions = {}): Promise<R> {
    const res = await this.raw(method, path, opts);
    if (res.status === 204 || res.body.length === 0) return undefined as R;
    return JSON.parse(res.body.toString("utf8")) as R;
  }

  /**
   * One operation of the API, typed by the generated OpenAPI document (operations.ts): the path's
   * parameters filled in, the body and the answer the operation's own.
   */
  call<M extends HttpMethod, P extends PathWith<M>>(
    method: M,
    path: P,
    opts: CallOptions<Operation<P, M>> = {},
  ): Promise<Answer<Operation<P, M>>> {
    return this.request(method.toUpperCase(), fillPath(path, opts.path as Record<string, string> | undefined), opts);
  }

  // ---------- health and keys ----------
  health = () => this.call("get", "/v1/health");
  /** Whether the gateway reaches every service (throws SERVICE_UNAVAILABLE when one does not answer). */
  readiness = () => this.call("get", "/v1/health/ready");
  authHealth = () => this.call("get", "/v1/health/auth");
  verifyKey = () => this.call("get", "/v1/auth/verify");

  // ---------- evaluations ----------
  createEvaluation = (body: T.CreateEvaluation) => this.call("post", "/v1/evaluations", { body });
  /**
   * createEvaluation that also answers the call's rate-limit state (its X-RateLimit-* headers),
   * for callers that send many and pace themselves. The body may be pre-encoded.
   */
  async submitEvaluation(
    body: T.CreateEvaluation | EncodedJson,
  ): Promise<{ evaluation: Answer<Operation<"/v1/evaluations", "post">>; rateLimit: RateLimitState | undefined }> {
    const res = await this.raw("POST", "/v1/evaluations", { body });
    return {
      evaluation: JSON.parse(res.body.toString("utf8")) as Answer<Operation<"/v1/evaluations", "post">>,
      rateLimit: rateLimitFrom(res.headers),
    };
  }
  getEvaluation = (id: string) => this.call("get", "/v1/evaluations/{evaluation_id}", { path: { evaluation_id: id } });
  deleteEvaluation = (id: string) =>
    this.call("delete", "/v1/evaluations/{evaluation_id}", { path: { evaluation_id: id } });
  listEvaluations = (query: T.ListEvaluationsQuery = {}) =>
    this.call("get", "/v1/evaluations", { query: query as Query });

  /** Every evaluation matching the filters, newest first, fetching pages of `limit` as needed. */
  evaluations(query: Omit<T.ListEvaluationsQuery, "cursor"> = {}): AsyncGenerator<T.Evaluation> {
    return paginate(
      (cursor) => this.listEvaluations({ ...query, ...cursor }),
      (page) => page.evaluations,
    );
  }

  // ---------- findings ----------
  /** Findings across evaluations with their states, most recently seen first. */
  listFindings = (query: T.ListFindingsQuery = {}) => this.call("get", "/v1/findings", { query: query as Query });
  /** Triage a finding: false_positive or accepted_risk (with reason; expires_at for a risk), or open. */
  updateFinding = (id: string, body: T.UpdateFinding) =>
    this.call("patch", "/v1/findings/{finding_id}", { path: { finding_id: id }, body });

  /** Polls a pending evaluation (large changes are queued) until it is completed or failed. */
  async waitForEvaluation(
    evaluation: T.Evaluation,
    opts: { intervalMs?: number; timeoutMs?: number } = {},
  ): Promise<T.Evaluation> {
    const deadline = Date.now() + (opts.timeoutMs ?? 600_000);
    let e = evaluation;
    while (e.status === "pending") {
      if (Date.now() > deadline) throw new Error(`evaluation ${e.id} is still pending`);
      await this.sleep(opts.intervalMs ?? 1000);
      e = await this.getEvaluation(e.id);
    }
    return e;
  }

  // ---------- policies ----------
  listPolicies = (query: T.ListPoliciesQuery = {}) => this.call("get", "/v1/policies", { query: query as Query });
  getPolicy = (id: string) => this.call("get", "/v1/policies/{policy_id}", { path: { policy_id: id } });
  createPolicy = (body: T.CreatePolicy) => this.call("post", "/v1/policies", { body });
  updatePolicy = (id: string, body: T.UpdatePolicy) =>
    this.call("patch", "/v1/policies/{policy_id}", { path: { policy_id: id }, body });
  deletePolicy = (id: string) => this.call("delete", "/v1/policies/{policy_id}", { path: { policy_id: id } });

  // ---------- repositories ----------
  listRepositories = () => this.call("get", "/v1/repositories");
  connectRepository = (body: T.ConnectRepository) => this.call("post", "/v1/repositories", { body });
  disconnectRepository = (id: string) =>
    this.call("delete", "/v1/repositories/{repository_id}", { path: { repository_id: id } });

  // ---------- organization and keys ----------
  getOrganization = () => this.call("get", "/v1/organization");
  updateOrganization = (body: T.UpdateOrganization) => this.call("patch", "/v1/organization", { body });
  /** Instance operator only. */
  createOrganization = (body: T.CreateOrganization) => this.call("post", "/v1/organizations", { body });
  /** Instance operator only: an organization's own rate limits. */
  updateOrganizationLimits = (id: string, body: T.UpdateOrganizationLimits) =>
    this.call("patch", "/v1/organizations/{organization_id}", { path: { organization_id: id }, body });
  listApiKeys = () => this.call("get", "/v1/api-keys");
  createApiKey = (body: T.CreateApiKey) => this.call("post", "/v1/api-keys", { body });
  revokeApiKey = (id: string) => this.call("delete", "/v1/api-keys/{key_id}", { path: { key_id: id } });

  // ---------- people and access ----------
  listMembers = () => this.call("get", "/v1/members");
  /** 201 with `invitation_url`: shown once, works once, for 7 days. */
  inviteMember = (body: T.InviteMember) => this.call("post", "/v1/members", { body });
  /** Instance operator only: invites a member (the first owner) of any organization. */
  inviteOrganizationMember = (organizationId: string, body: T.InviteMember) =>
    this.call("post", "/v1/organizations/{organization_id}/members", {
      path: { organization_id: organizationId },
      body,
    });
  updateMember = (id: string, body: T.UpdateMember) =>
    this.call("patch", "/v1/members/{member_id}", { path: { member_id: id }, body });
  removeMember = (id: string) => this.call("delete", "/v1/members/{member_id}", { path: { member_id: id } });
  /** A password-reset link for a member (shown once; works once, for an hour): hand it to them. */
  issuePasswordReset = (id: string) =>
    this.call("post", "/v1/members/{member_id}/password-reset", { path: { member_id: id } });
  /**
   * Joins an organization with an invitation (no API key is sent: the invitation is the
   * credential). `token` may be the whole `invitation_url` or its `vdt_inv_…` token; a new
   * person gives a name and a new password, an existing account its password. Then sign in.
   */
  acceptInvitation = (body: T.AcceptInvitation) =>
    this.call("post", "/auth/invitations/accept", {
      body: { ...body, token: invitationToken(body.token) },
      anonymous: true,
    });

  listAuditEvents = (query: T.ListAuditEventsQuery = {}) =>
    this.call("get", "/v1/audit-events", { query: query as Query });
  /** Every audit event matching the filters, newest first, fetching pages of `limit` as needed. */
  auditEvents(query: Omit<T.ListAuditEventsQuery, "cursor"> = {}): AsyncGenerator<T.AuditEvent> {
    return paginate(
      (cursor) => this.listAuditEvents({ ...query, ...cursor }),
      (page) => page.audit_events,
    );
  }

  /** The whole audit log as JSON Lines text, oldest first (each line a hash-chained event: auditChain.ts). */
  async exportAuditEvents(): Promise<string> {
    return (await this.raw("GET", "/v1/audit-events/export")).body.toString("utf8");
  }

  listOAuthClients = () => this.call("get", "/v1/oauth-clients");
  /** 201 with `client_secret` (shown once; null for a public client). */
  createOAuthClient = (body: T.CreateOAuthClient) => this.call("post", "/v1/oauth-clients", { body });
  deleteOAuthClient = (clientId: string) =>
    this.call("delete", "/v1/oauth-clients/{client_id}", { path: { client_id: clientId } });

  getSsoConnection = () => this.call("get", "/v1/organization/sso");
  /** Creates or replaces the connection; an omitted OIDC client_secret keeps the stored one. */
  putSsoConnection = (body: T.PutSsoConnection) => this.call("put", "/v1/organization/sso", { body });
  deleteSsoConnection = () => this.call("delete", "/v1/organization/sso");
  /**
   * Instance operator only: marks a domain an organization claimed for SSO as verified, after
   * checking its DNS TXT record (`verification_token`) out of band. Answers the connection.
   */
  verifySsoDomain = (organizationId: string, domain: string) =>
    this.call("post", "/v1/organizations/{organization_id}/sso/domains/{domain}/verify", {
      path: { organization_id: organizationId, domain: domain },
    });

  listScimTokens = () => this.call("get", "/v1/scim-tokens");
  /** 201 with `token` (vdt_scim_…): shown once. */
  createScimToken = (body: T.CreateScimToken) => this.call("post", "/v1/scim-tokens", { body });
  deleteScimToken = (id: string) => this.call("delete", "/v1/scim-tokens/{token_id}", { path: { token_id: id } });

  // ---------- compliance ----------
  complianceOverview = () => this.call("get", "/v1/compliance/overview");
  framework = (id: string) =>
    this.call("get", "/v1/compliance/frameworks/{framework_id}", { path: { framework_id: id } });
  createReport = (body: T.CreateReport) => this.call("post", "/v1/compliance/reports", { body });
  getReport = (id: string) => this.call("get", "/v1/compliance/reports/{report_id}", { path: { report_id: id } });

  /** Polls a report until it is completed or failed; `onProgress` sees every state. */
  async waitForReport(
    report: T.Report,
    opts: { intervalMs?: number; timeoutMs?: number; onProgress?: (r: T.Report, elapsedMs: number) => void } = {},
  ): Promise<T.Report> {
    const started = Date.now();
    const deadline = started + (opts.timeoutMs ?? 600_000);
    let r = report;
    opts.onProgress?.(r, 0);
    while (r.status === "generating") {
      if (Date.now() > deadline) throw new Error(`report ${r.report_id} is still generating`);
      await this.sleep(opts.intervalMs ?? 1000);
      r = await this.getReport(r.report_id);
      opts.onProgress?.(r, Date.now() - started);
    }
    return r;
  }

  /** Downloads a completed report through its signed link (no API key is sent). */
  async downloadReport(
    downloadUrl: string,
  ): Promise<{ content: Buffer; contentType: string; filename: string | undefined }> {
    const res = await this.raw("GET", downloadUrl, { anonymous: true });
    const disposition = res.headers.get("content-disposition") ?? "";
    const filename = /filename="?([^";]+)"?/.exec(disposition)?.[1];
    return { content: res.body, contentType: res.headers.get("content-type") ?? "application/octet-stream", filename };
  }

  /** The instance's report public key (Ed25519, PEM), which verifies report files' signatures; no API key is sent. */
  async reportPublicKey(): Promise<string> {
    return (await this.raw("GET", "/.well-known/verdict-report-key.pem", { anonymous: true })).body.toString("utf8");
  }

  // ---------- webhooks ----------
  listConnections = () => this.call("get", "/v1/integrations/connections");
  createConnection = (body: T.CreateConnection) => this.call("post", "/v1/integrations/connections", { body });
  deleteConnection = (id: string) =>
    this.call("delete", "/v1/integrations/connections/{connection_id}", { path: { connection_id: id } });

  listWebhooks = () => this.call("get", "/v1/webhooks");
  getWebhook = (id: string) => this.call("get", "/v1/webhooks/{webhook_id}", { path: { webhook_id: id } });
  createWebhook = (body: T.CreateWebhook) => this.call("post", "/v1/webhooks", { body });
  updateWebhook = (id: string, body: T.UpdateWebhook) =>
    this.call("patch", "/v1/webhooks/{webhook_id}", { path: { webhook_id: id }, body });
  deleteWebhook = (id: string) => this.call("delete", "/v1/webhooks/{webhook_id}", { path: { webhook_id: id } });
  pingWebhook = (id: string) => this.call("post", "/v1/webhooks/{webhook_id}/ping", { path: { webhook_id: id } });
  listDeliveries = (id: string, query: T.ListDeliveriesQuery = {}) =>
    this.call("get", "/v1/webhooks/{webhook_id}/deliveries", { path: { webhook_id: id }, query });
  redeliver = (id: string, deliveryId: string) =>
    this.call("post", "/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver", {
      path: { webhook_id: id, delivery_id: deliveryId },
    });

  /** A webhook's whole delivery log, newest first, page by page. */
  deliveries(id: string, query: Omit<T.ListDeliveriesQuery, "cursor"> = {}): AsyncGenerator<T.Delivery> {
    return paginate(
      (cursor) => this.listDeliveries(id, { ...query, ...cursor }),
      (page) => page.deliveries,
    );
  }
}

/** The token of an invitation link (`…/invitations/accept#token=vdt_inv_…`), or the token itself. */
export function invitationToken(urlOrToken: string): string {
  const t = urlOrToken.trim();
  const m = /[#?&]token=([^&#]+)/.exec(t);
  return m ? decodeURIComponent(m[1]!) : t;
}

/** The items of every page of a cursor-paginated list: `fetch` gets `{}` first, then `{ cursor }`. */
async function* paginate<P extends { pagination: { has_more: boolean; next_cursor?: string | null } }, I>(
  fetch: (cursor: { cursor?: string }) => Promise<P>,
  items: (page: P) => I[],
): AsyncGenerator<I> {
  let cursor: string | undefined;
  do {
    const page = await fetch(cursor ? { cursor } : {});
    yield* items(page);
    cursor = page.pagination.has_more && page.pagination.next_cursor ? page.pagination.next_cursor : undefined;
  } while (cursor);
}

function connectionReason(err: unknown): string {
  const e = err as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === "TimeoutError") return "timed out";
  return e?.code ?? e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(err);
}
