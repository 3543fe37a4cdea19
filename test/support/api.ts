// A small HTTP client for the black-box suites. Every response is checked against the OpenAPI
// document the server publishes: status documented, body matching its schema.
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { expect } from "@jest/globals";

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  key?: string | null;
  body?: unknown;
  rawBody?: string;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  /** Skip the OpenAPI conformance check (for routes that are deliberately undocumented). */
  unchecked?: boolean;
}

type OpenApi = {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: { "application/json": { schema: object } } }> }>
  >;
  components: { schemas: Record<string, object> };
};

export class Api {
  private spec?: OpenApi;
  private ajv?: InstanceType<typeof Ajv2020.default>;

  constructor(
    readonly baseUrl: string,
    readonly defaultKey?: string,
  ) {}

  withKey(key: string): Api {
    const a = new Api(this.baseUrl, key);
    a.spec = this.spec;
    a.ajv = this.ajv;
    return a;
  }

  async request<T = any>(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    const url = new URL(path, this.baseUrl);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { ...opts.headers };
    const key = opts.key === undefined ? this.defaultKey : opts.key;
    if (key) headers.authorization = `Bearer ${key}`;
    let body: string | undefined;
    if (opts.rawBody !== undefined) body = opts.rawBody;
    else if (opts.body !== undefined) body = JSON.stringify(opts.body);
    if (body !== undefined && !headers["content-type"]) headers["content-type"] = "application/json";
    const res = await fetch(url, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = undefined;
    if (text && (res.headers.get("content-type") ?? "").includes("json")) parsed = JSON.parse(text);
    const out: ApiResponse<T> = { status: res.status, headers: res.headers, body: parsed as T, text };
    if (!opts.unchecked && path.startsWith("/v1/") && path !== "/v1/openapi.json")
      await this.conform(method, url.pathname, out);
    return out;
  }

  get = <T = any>(path: string, opts?: RequestOptions) => this.request<T>("GET", path, opts);
  post = <T = any>(path: string, body?: unknown, opts?: RequestOptions) =>
    this.request<T>("POST", path, { ...opts, body });
  patch = <T = any>(path: string, body?: unknown, opts?: RequestOptions) =>
    this.request<T>("PATCH", path, { ...opts, body });
  delete = <T = any>(path: string, opts?: RequestOptions) => this.request<T>("DELETE", path, opts);

  private async load(): Promise<void> {
    if (this.spec) return;
    const res = await fetch(new URL("/v1/openapi.json", this.baseUrl));
    this.spec = (await res.json()) as OpenApi;
    this.ajv = new Ajv2020.default({ strict: false, allErrors: true });
    addFormats.default(this.ajv);
    for (const [id, schema] of Object.entries(this.spec.components.schemas))
      this.ajv.addSchema(schema, `#/components/schemas/${id}`);
  }

  /** Finds the documented operation for a concrete path and checks the response against it. */
  private async conform(method: string, pathname: string, res: ApiResponse): Promise<void> {
    await this.load();
    // OpenAPI: a concrete path (/v1/policies/pattern-tests) is matched before a templated one
    // (/v1/policies/{policy_id}).
    const concrete = this.spec!.paths[pathname] ? ([pathname, this.spec!.paths[pathname]] as const) : undefined;
    const entry =
      concrete ??
      Object.entries(this.spec!.paths).find(([template]) =>
        new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(pathname),
      );
    const op = entry?.[1][method.toLowerCase()];
    if (!op) {
      // Unknown routes answer 404 and undeclared methods on known paths 405, in the error format;
      // nothing else may be undocumented.
      expect({ status: res.status, path: `${method} ${pathname}` }).toEqual({
        status: entry ? 405 : 404,
        path: `${method} ${pathname}`,
      });
      const validate = this.ajv!.getSchema("#/components/schemas/Error")!;
      expect(validate(res.body) ? null : validate.errors).toBeNull();
      return;
    }
    const documented = op.responses[String(res.status)];
    expect({ path: `${method} ${pathname}`, status: res.status, documented: Boolean(documented) }).toEqual({
      path: `${method} ${pathname}`,
      status: res.status,
      documented: true,
    });
    const schema = documented!.content?.["application/json"]?.schema;
    if (!schema) {
      expect(res.text).toBe("");
      return;
    }
    const validate = this.ajv!.compile(schema);
    const ok = validate(res.body);
    expect({ path: `${method} ${pathname} ${res.status}`, errors: ok ? null : validate.errors }).toEqual({
      path: `${method} ${pathname} ${res.status}`,
      errors: null,
    });
  }
}

export function expectError(res: ApiResponse, status: number, error: string, code: string): void {
  expect({ status: res.status, error: res.body?.error, code: res.body?.code }).toEqual({ status, error, code });
  expect(res.body.request_id).toMatch(/^req_/);
  expect(res.headers.get("x-request-id")).toBe(res.body.request_id);
  expect(typeof res.body.message).toBe("string");
}

export function expectFieldError(
  res: ApiResponse,
  status: number,
  field: string,
  code: string,
  extra: Record<string, unknown> = {},
): void {
  expectError(res, status, "validation_error", "VALIDATION_FAILED");
  expect(res.body.details.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field, code, ...extra })]));
}
