// The typed API client: openapi-fetch over the types generated from the gateway's OpenAPI
// document, the SDK's generated module (pnpm sdk:gen), which the SDK and the CLI use too. The
// session travels in its cookie; unsafe methods carry the session's CSRF token.
import createClient, { type Middleware } from "openapi-fetch";
import type { components, paths } from "@verdict/sdk/gen/openapi";

export type Schemas = components["schemas"];

let csrfToken = "";
export function setCsrfToken(token: string): void {
  csrfToken = token;
}

const csrf: Middleware = {
  onRequest({ request }) {
    if (!["GET", "HEAD", "OPTIONS"].includes(request.method) && csrfToken) {
      request.headers.set("X-CSRF-Token", csrfToken);
    }
    return request;
  },
};

export const api = createClient<paths>({ baseUrl: window.location.origin, credentials: "same-origin" });
api.use(csrf);

/** An error body of the API (the spec's format). */
export interface ApiError {
  error: string;
  code: string;
  message: string;
  details?: { errors?: { field: string; code: string; message: string }[] } & Record<string, unknown>;
  request_id?: string;
}

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiError,
  ) {
    super(body.message);
  }
  /** Field errors by field name (`name`, `scopes[0]`, …) for VALIDATION_FAILED. */
  fieldErrors(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const e of this.body.details?.errors ?? []) out[e.field] = e.message;
    return out;
  }
}

/** Unwraps an openapi-fetch result: the data, or an ApiFailure carrying the error body. */
export async function call<T>(p: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await p;
  if (!response.ok) {
    const body = (error ?? {}) as Partial<ApiError>;
    throw new ApiFailure(response.status, {
      error: body.error ?? "error",
      code: body.code ?? `HTTP_${response.status}`,
      message: body.message ?? response.statusText,
      ...(body.details ? { details: body.details } : {}),
      ...(body.request_id ? { request_id: body.request_id } : {}),
    });
  }
  return data as T;
}

/**
 * A refusal that names one field in `details.field` (a provider refusing a token:
 * PROVIDER_UNAUTHORIZED on `token`) as that field's error, so a form shows it on the field.
 */
export function onNamedField(err: unknown): unknown {
  if (!(err instanceof ApiFailure)) return err;
  const { details } = err.body;
  if (typeof details?.field !== "string" || details.errors?.length) return err;
  const errors = [{ field: details.field, code: err.body.code, message: `${err.body.message} (${err.body.code})` }];
  return new ApiFailure(err.status, { ...err.body, details: { ...details, errors } });
}

export function message(err: unknown): string {
  if (err instanceof ApiFailure) {
    // Field errors shown where no form field carries them (e.g. a redelivery to a disabled endpoint).
    const fields = (err.body.details?.errors ?? []).map((e) => `${e.field}: ${e.message}`).join("; ");
    return `${err.body.message}${fields ? ` — ${fields}` : ""} (${err.body.code})`;
  }
  return err instanceof Error ? err.message : String(err);
}
