// How a webhook leaves Verdict: an HTTP POST through the shared outbound guard (@verdict/kit's
// Egress: the address checked after resolution and pinned, one deadline, a capped read), no
// redirects, and of the answer only its status and the start of its body.
import { Egress, EgressError, type Resolver } from "@verdict/kit";

export { REFUSED_MESSAGE, systemResolver, type ResolvedAddress, type Resolver } from "@verdict/kit";

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

export class HttpSender implements Sender {
  private readonly egress: Egress;
  private readonly maxResponseBytes: number;
  private readonly excerptBytes: number;

  constructor(private readonly opts: HttpSenderOptions) {
    this.egress = new Egress({
      allowPrivate: opts.allowPrivate,
      ...(opts.resolver ? { resolver: opts.resolver } : {}),
    });
    this.maxResponseBytes = opts.maxResponseBytes ?? 64 * 1024;
    this.excerptBytes = opts.excerptBytes ?? 1024;
  }

  async send(message: OutboundMessage): Promise<SendResult> {
    const started = process.hrtime.bigint();
    const elapsed = () => Math.round(Number(process.hrtime.bigint() - started) / 1e6);
    try {
      const res = await this.egress.request({
        url: message.url,
        method: "POST",
        headers: {
          ...message.headers,
          "content-type": "application/json",
          "user-agent": this.opts.userAgent ?? "Verdict-Webhooks/1",
        },
        body: message.body,
        timeoutMs: this.opts.timeoutMs,
        // Enough read: the status is known, and the rest of a large body is not wanted.
        maxResponseBytes: this.maxResponseBytes,
        oversize: "truncate",
      });
      const retryAfter = res.headers["retry-after"];
      return {
        statusCode: res.status,
        ...(typeof retryAfter === "string" ? { retryAfter } : {}),
        excerpt: excerpt(res.body, this.excerptBytes),
        latencyMs: elapsed(),
      };
    } catch (err) {
      if (!(err instanceof EgressError)) throw err;
      return { error: err.message, latencyMs: err.reason === "invalid_url" ? 0 : elapsed() };
    }
  }
}

function excerpt(bytes: Buffer, max: number): string {
  // Cut on a character boundary: drop a partial UTF-8 sequence at the end.
  let text = bytes.subarray(0, max).toString("utf8");
  if (bytes.length > max && text.endsWith("\uFFFD")) text = text.slice(0, -1);
  return text;
}
