// What can go wrong talking to Verdict: the API answered with an error body (the spec's error
// table), or it could not be reached at all.

/** The API answered with an error status; fields are the spec's error body. */
export class VerdictApiError extends Error {
  override readonly name = "VerdictApiError";
  constructor(
    readonly status: number,
    readonly error: string,
    readonly code: string,
    message: string,
    readonly requestId: string | undefined,
    readonly details: Record<string, unknown> | undefined,
  ) {
    super(message);
  }

  /** 401 and 403: the credentials are missing, wrong, or lack a scope. */
  get isAuthError(): boolean {
    return this.status === 401 || this.status === 403;
  }
}

/** Verdict could not be reached (refused, DNS, timeout, TLS) after the retries. */
export class VerdictConnectionError extends Error {
  override readonly name = "VerdictConnectionError";
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`cannot reach Verdict at ${url}: ${reason}`);
  }
}

/** Builds the error from a response body that may or may not be the spec's error object. */
export function apiErrorFrom(status: number, body: unknown, text: string): VerdictApiError {
  const b = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === "string" ? v : undefined);
  return new VerdictApiError(
    status,
    str(b.error) ?? "http_error",
    str(b.code) ?? `HTTP_${status}`,
    str(b.message) ?? (text.slice(0, 200) || `HTTP ${status}`),
    str(b.request_id),
    b.details && typeof b.details === "object" ? (b.details as Record<string, unknown>) : undefined,
  );
}
