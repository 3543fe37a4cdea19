// The one way a webhook leaves Verdict: an HTTP POST with a deadline, no redirects, a capped
// response read, and an address check at connect time. Name resolution goes through a Resolver
// adapter, and every address it answers is checked before any connection is made, so a name
// that resolves (or re-resolves, "DNS rebinding") to an internal address is refused.
import { lookup as dnsLookup } from "node:dns/promises";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { classifyAddress, ipLiteral } from "./domain/ssrf.js";

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

export interface OutboundMessage {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface SendResult {
  /** Absent when no response arrived. */
  statusCode?: number;
  retryAfter?: string;
  /** The start of the response body (UTF-8, at most excerptBytes). */
  excerpt?: string;
  /** Why no response arrived (refused, timeout, connection error). */
  error?: string;
  latencyMs: number;
}

export interface Sender {
  send(message: OutboundMessage): Promise<SendResult>;
}

export interface HttpSenderOptions {
  resolver?: Resolver;
  allowPrivate: boolean;
  timeoutMs: number;
  /** At most this much of a response is read; the rest is discarded. */
  maxResponseBytes?: number;
  excerptBytes?: number;
  userAgent?: string;
}

export const REFUSED_MESSAGE = "refused: the host resolves to a loopback, private, link-local or reserved address";

class RefusedError extends Error {
  code = "EVERDICTREFUSED";
  constructor() {
    super(REFUSED_MESSAGE);
  }
}

export class HttpSender implements Sender {
  private readonly resolver: Resolver;
  private readonly maxResponseBytes: number;
  private readonly excerptBytes: number;

  constructor(private readonly opts: HttpSenderOptions) {
    this.resolver = opts.resolver ?? systemResolver;
    this.maxResponseBytes = opts.maxResponseBytes ?? 64 * 1024;
    this.excerptBytes = opts.excerptBytes ?? 1024;
  }

  async send(message: OutboundMessage): Promise<SendResult> {
    const started = process.hrtime.bigint();
    const elapsed = () => Math.round(Number(process.hrtime.bigint() - started) / 1e6);
    let url: URL;
    try {
      url = new URL(message.url);
    } catch {
      return { error: "invalid url", latencyMs: 0 };
    }
    // Node connects to an IP literal without calling `lookup`: check it here.
    const literal = ipLiteral(url.hostname);
    if (literal && !this.opts.allowPrivate && classifyAddress(literal) === "blocked")
      return { error: REFUSED_MESSAGE, latencyMs: elapsed() };

    const lookup: LookupFunction = (hostname, options, callback) => {
      this.resolver.lookup(hostname).then(
        (addresses) => {
          if (!addresses.length)
            return callback(Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }), "", 4);
          if (!this.opts.allowPrivate && addresses.some((a) => classifyAddress(a.address) === "blocked"))
            return callback(new RefusedError(), "", 4);
          if (options.all) return (callback as unknown as (err: null, all: ResolvedAddress[]) => void)(null, addresses);
          const wanted = options.family === 6 ? 6 : options.family === 4 ? 4 : 0;
          const pick = addresses.find((a) => !wanted || a.family === wanted) ?? addresses[0]!;
          callback(null, pick.address, pick.family);
        },
        (err: Error) => callback(err as NodeJS.ErrnoException, "", 4),
      );
    };

    const body = Buffer.from(message.body, "utf8");
    const request = url.protocol === "https:" ? httpsRequest : httpRequest;
    return new Promise<SendResult>((resolve) => {
      let settled = false;
      const finish = (result: Omit<SendResult, "latencyMs">) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...result, latencyMs: elapsed() });
      };
      const req = request(
        url,
        {
          method: "POST",
          lookup,
          // A connection per message: no pooled socket outlives the address check it passed.
          agent: false,
          headers: {
            ...message.headers,
            "content-type": "application/json",
            "content-length": String(body.length),
            "user-agent": this.opts.userAgent ?? "Verdict-Webhooks/1",
          },
        },
        (res: IncomingMessage) => {
          const chunks: Buffer[] = [];
          let size = 0;
          const done = () =>
            finish({
              statusCode: res.statusCode,
              ...(typeof res.headers["retry-after"] === "string" ? { retryAfter: res.headers["retry-after"] } : {}),
              excerpt: excerpt(Buffer.concat(chunks), this.excerptBytes),
            });
          res.on("data", (chunk: Buffer) => {
            if (size >= this.maxResponseBytes) return;
            chunks.push(chunk.subarray(0, this.maxResponseBytes - size));
            size += chunk.length;
            // Enough read: the status is known, and the rest of a large body is not wanted.
            if (size >= this.maxResponseBytes) {
              done();
              res.destroy();
            }
          });
          res.on("end", done);
          res.on("error", done);
          res.on("close", done);
        },
      );
      const timer = setTimeout(() => {
        finish({ error: `timed out after ${this.opts.timeoutMs} ms` });
        req.destroy();
      }, this.opts.timeoutMs);
      req.on("error", (err: NodeJS.ErrnoException) => {
        if (err instanceof RefusedError || err.code === "EVERDICTREFUSED") finish({ error: REFUSED_MESSAGE });
        else finish({ error: `connection failed: ${err.code ?? err.message}` });
      });
      req.end(body);
    });
  }
}

function excerpt(bytes: Buffer, max: number): string {
  // Cut on a character boundary: drop a partial UTF-8 sequence at the end.
  let text = bytes.subarray(0, max).toString("utf8");
  if (bytes.length > max && text.endsWith("\uFFFD")) text = text.slice(0, -1);
  return text;
}
