// The one way Verdict calls addresses its tenants choose: webhook receivers, and an IdP's SAML
// metadata, OIDC discovery document, token endpoint and keys. Every address a name resolves to is
// checked (addresses.ts) before a connection is made, and the connection goes to the address that
// was checked (the `lookup` hook hands it to the socket: no second resolution, so DNS rebinding
// cannot switch it); an IP literal is checked as written; each redirect is a new request checked
// the same way. One deadline covers the whole exchange, redirects and the body's last byte; the
// body is read up to a cap while it streams (a larger one is cut off and its bytes let go), and
// no pooled socket outlives the check it passed. Failures say what happened for the logs; what a
// tenant is shown must not tell open, closed and live ports apart (the callers' job: one message).
import { lookup as dnsLookup } from "node:dns/promises";
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { classifyAddress, ipLiteral } from "./addresses.js";

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Name resolution (the system resolver in production; tests substitute names they control). */
export interface Resolver {
  lookup(hostname: string): Promise<ResolvedAddress[]>;
}

export const systemResolver: Resolver = {
  lookup: (hostname) => dnsLookup(hostname, { all: true, verbatim: true }),
};

export interface EgressPolicy {
  /**
   * Loopback, private, link-local, metadata and other special-purpose addresses this lets through:
   * none (false: the default), all (true: development and tests), or the listed addresses and
   * CIDR ranges (an identity provider inside the operator's network).
   */
  allowPrivate: boolean | readonly string[];
  resolver?: Resolver;
}

export interface EgressRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** The whole exchange: resolution, connection, redirects and the body's last byte. */
  timeoutMs: number;
  maxResponseBytes: number;
  /** Past maxResponseBytes: an error (the default), or the first bytes kept and the rest not read. */
  oversize?: "fail" | "truncate";
  /** Redirects followed (GET and HEAD only, never from https to http); 0: a 3xx is the answer. */
  maxRedirects?: number;
  signal?: AbortSignal;
}

export interface EgressResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The body was longer than maxResponseBytes (oversize "truncate"). */
  truncated: boolean;
  /** The address that answered (after redirects). */
  url: string;
}

export type EgressFailure = "invalid_url" | "refused" | "timeout" | "connection" | "too_large" | "redirect";

export const REFUSED_MESSAGE = "refused: the host resolves to a loopback, private, link-local or reserved address";

export class EgressError extends Error {
  readonly code = "EVERDICTEGRESS";
  constructor(
    readonly reason: EgressFailure,
    message: string,
  ) {
    super(message);
    this.name = "EgressError";
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export class Egress {
  private readonly resolver: Resolver;
  private readonly allowed = new BlockList();
  private readonly allowAll: boolean;

  constructor(policy: EgressPolicy) {
    this.resolver = policy.resolver ?? systemResolver;
    this.allowAll = policy.allowPrivate === true;
    if (Array.isArray(policy.allowPrivate)) {
      for (const entry of policy.allowPrivate as readonly string[]) {
        const [net, bits] = entry.split("/");
        const family = isIP(net ?? "") === 6 ? "ipv6" : "ipv4";
        if (bits === undefined) this.allowed.addAddress(net!, family);
        else this.allowed.addSubnet(net!, Number(bits), family);
      }
    }
  }

  /** Whether a connection to this IP address is allowed. */
  allows(address: string): boolean {
    if (this.allowAll || classifyAddress(address) === "public") return true;
    const family = isIP(address);
    return family !== 0 && this.allowed.check(address.split("%")[0]!, family === 6 ? "ipv6" : "ipv4");
  }

  /**
   * Whether a request to this URL would be refused now: its IP literal, or any address its host
   * resolves to, is not allowed (for a clear answer before the first call; every request is
   * checked again). A host that does not resolve is not refused here: its request fails.
   */
  async refuses(url: string): Promise<boolean> {
    let hostname: string;
    try {
      hostname = new URL(url).hostname;
    } catch {
      return false;
    }
    const literal = ipLiteral(hostname);
    if (literal) return !this.allows(literal);
    const addresses = await this.resolver.lookup(hostname).catch(() => []);
    return addresses.some((a) => !this.allows(a.address));
  }

  async request(req: EgressRequest): Promise<EgressResponse> {
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      throw new EgressError("invalid_url", "invalid url");
    }
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new EgressError("timeout", `timed out after ${req.timeoutMs} ms`)),
      req.timeoutMs,
    );
    const onAbort = () => deadline.abort(new EgressError("timeout", "cancelled"));
    req.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      let method = (req.method ?? "GET").toUpperCase();
      for (let hop = 0; ; hop++) {
        const res = await this.exchange(url, method, req, deadline.signal);
        const location = res.headers.location;
        if (!REDIRECTS.has(res.status) || hop >= (req.maxRedirects ?? 0) || !location) return res;
        if (method !== "GET" && method !== "HEAD") return res;
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          throw new EgressError("redirect", "redirected to an invalid url");
        }
        if (next.protocol !== "https:" && (next.protocol !== "http:" || url.protocol === "https:"))
          throw new EgressError("redirect", `redirected from ${url.protocol} to ${next.protocol}`);
        url = next;
        method = method === "HEAD" ? "HEAD" : "GET";
      }
    } finally {
      clearTimeout(timer);
      req.signal?.removeEventListener("abort", onAbort);
    }
  }

  /**
   * A fetch function through this guard, for libraries that take one (openid-client's
   * customFetch): the library's redirect setting is kept ("manual": a 3xx is the answer).
   */
  fetcher(limits: { timeoutMs: number; maxResponseBytes: number }) {
    return async (
      url: string,
      init: {
        method?: string;
        headers?: ConstructorParameters<typeof Headers>[0];
        body?: unknown;
        signal?: AbortSignal;
        redirect?: string;
      },
    ): Promise<Response> => {
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((value, name) => (headers[name] = value));
      const body =
        init.body === undefined || init.body === null
          ? undefined
          : init.body instanceof Uint8Array || typeof init.body === "string"
            ? init.body
            : init.body instanceof URLSearchParams
              ? init.body.toString()
              : init.body instanceof ArrayBuffer
                ? new Uint8Array(init.body)
                : undefined;
      if (body === undefined && init.body !== undefined && init.body !== null)
        throw new EgressError("invalid_url", "unsupported request body");
      const res = await this.request({
        url,
        method: init.method ?? "GET",
        headers,
        ...(body === undefined ? {} : { body }),
        ...limits,
        maxRedirects: init.redirect === "follow" ? 3 : 0,
        ...(init.signal ? { signal: init.signal } : {}),
      });
      const out = new Headers();
      for (const [name, value] of Object.entries(res.headers)) {
        if (value === undefined) continue;
        for (const v of Array.isArray(value) ? value : [value]) out.append(name, v);
      }
      const nullBody = res.status === 204 || res.status === 205 || res.status === 304;
      return new Response(nullBody ? null : new Uint8Array(res.body), { status: res.status, headers: out });
    };
  }

  private exchange(url: URL, method: string, req: EgressRequest, signal: AbortSignal): Promise<EgressResponse> {
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    if (url.protocol !== "https:" && url.protocol !== "http:")
      return Promise.reject(new EgressError("invalid_url", `${url.protocol} is not http or https`));
    // Node connects to an IP literal without calling `lookup`: check it here.
    const literal = ipLiteral(url.hostname);
    if (literal && !this.allows(literal)) return Promise.reject(new EgressError("refused", REFUSED_MESSAGE));
    const lookup: LookupFunction = (hostname, options, callback) => {
      this.resolver.lookup(hostname).then(
        (addresses) => {
          if (!addresses.length)
            return callback(Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }), "", 4);
          // Every address, not only the one used: a name that answers a public and a private
          // address (round robin, or a rebinding server) is refused.
          if (addresses.some((a) => !this.allows(a.address)))
            return callback(new EgressError("refused", REFUSED_MESSAGE), "", 4);
          if (options.all) return (callback as unknown as (err: null, all: ResolvedAddress[]) => void)(null, addresses);
          const wanted = options.family === 6 ? 6 : options.family === 4 ? 4 : 0;
          const pick = addresses.find((a) => !wanted || a.family === wanted) ?? addresses[0]!;
          callback(null, pick.address, pick.family);
        },
        (err: Error) => callback(err as NodeJS.ErrnoException, "", 4),
      );
    };
    const body =
      req.body === undefined || method === "GET" || method === "HEAD"
        ? undefined
        : typeof req.body === "string"
          ? Buffer.from(req.body, "utf8")
          : req.body;
    const max = req.maxResponseBytes;
    const request = url.protocol === "https:" ? httpsRequest : httpRequest;
    return new Promise<EgressResponse>((resolve, reject) => {
      let settled = false;
      let response: IncomingMessage | undefined;
      const settle = (err: Error | undefined, value?: EgressResponse) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener("abort", onAbort);
        if (err) reject(err);
        else resolve(value!);
      };
      const onAbort = () => {
        settle(signal.reason as Error);
        req_.destroy();
        response?.destroy();
      };
      signal.addEventListener("abort", onAbort, { once: true });
      const req_ = request(
        url,
        {
          method,
          lookup,
          // A connection per request: no pooled socket outlives the address check it passed.
          agent: false,
          headers: {
            ...req.headers,
            ...(body ? { "content-length": String(body.length) } : {}),
          },
        },
        (res) => {
          response = res;
          const status = res.statusCode ?? 0;
          const done = (chunks: Buffer[], truncated: boolean) =>
            settle(undefined, { status, headers: res.headers, body: Buffer.concat(chunks), truncated, url: url.href });
          if (REDIRECTS.has(status) && res.headers.location) {
            // The body of a redirect is not wanted.
            res.destroy();
            return done([], false);
          }
          const declared = Number(res.headers["content-length"]);
          const tooLarge = () => new EgressError("too_large", `the answer is larger than ${max} bytes`);
          if (req.oversize !== "truncate" && Number.isFinite(declared) && declared > max) {
            res.destroy();
            return settle(tooLarge());
          }
          let chunks: Buffer[] = [];
          let size = 0;
          res.on("data", (chunk: Buffer) => {
            if (settled) return;
            if (size + chunk.length <= max) {
              chunks.push(chunk);
              size += chunk.length;
              return;
            }
            // Past the cap: stop reading; what was read goes with the rejection (or is kept cut).
            res.destroy();
            if (req.oversize === "truncate") {
              chunks.push(chunk.subarray(0, max - size));
              done(chunks, true);
            } else {
              chunks = [];
              settle(tooLarge());
            }
          });
          res.on("end", () => done(chunks, false));
          res.on("error", (err: NodeJS.ErrnoException) =>
            settle(new EgressError("connection", `connection failed: ${err.code ?? err.message}`)),
          );
          res.on("close", () => {
            if (res.complete) return;
            // Cut short: an error, unless only the status was wanted (what arrived is kept).
            if (req.oversize === "truncate") done(chunks, true);
            else settle(new EgressError("connection", "connection failed: the answer was cut short"));
          });
        },
      );
      req_.on("error", (err: NodeJS.ErrnoException) => {
        if (err instanceof EgressError) settle(err);
        else settle(new EgressError("connection", `connection failed: ${err.code ?? err.message}`));
      });
      req_.end(body);
    });
  }
}
