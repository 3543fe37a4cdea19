// What a webhook endpoint must look like: its URL, the events it takes, and its secret.
import { randomBytes } from "node:crypto";
import { classifyAddress, errors, ipLiteral, type FieldError } from "@verdict/kit";
import { isSubscribable, SUBSCRIBABLE_EVENTS, type SubscribableEvent } from "./events.js";

export const MAX_URL_LENGTH = 2048;
export const SECRET_PREFIX = "whsec_";
/** The Standard Webhooks specification: secrets are 24 to 64 random bytes. */
export const MIN_SECRET_BYTES = 24;
export const MAX_SECRET_BYTES = 64;
const GENERATED_SECRET_BYTES = 32;
const BASE64_RE = /^[A-Za-z0-9+/]+={0,2}$/;

export interface EgressPolicy {
  /** http:// targets are accepted (development only). */
  allowHttp: boolean;
  /** Loopback, private, link-local and metadata targets are accepted (development and tests). */
  allowPrivate: boolean;
  /** When set, the only host names (exact, or `*.suffix`) webhooks may target. */
  allowedHosts?: string[];
}

export function hostAllowed(hostname: string, allowedHosts: string[] | undefined): boolean {
  if (!allowedHosts?.length) return true;
  const host = hostname.toLowerCase();
  return allowedHosts.some((pattern) => {
    const p = pattern.toLowerCase();
    return p.startsWith("*.") ? host.endsWith(p.slice(1)) && host.length > p.length - 1 : host === p;
  });
}

/** Rules the schema cannot express (HTTP 422): a parseable URL the instance may call. */
export function checkUrl(raw: string, policy: EgressPolicy): FieldError[] {
  const bad = (message: string): FieldError[] => [{ field: "url", code: "INVALID_FORMAT", message }];
  if (raw.length > MAX_URL_LENGTH)
    return [
      {
        field: "url",
        code: "MAX_SIZE_EXCEEDED",
        message: `url is longer than ${MAX_URL_LENGTH} characters`,
        max: MAX_URL_LENGTH,
      },
    ];
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return bad("url is not a valid absolute URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return bad("url must use https");
  if (url.protocol === "http:" && !policy.allowHttp)
    return bad("url must use https (this instance does not allow http:// webhooks)");
  if (url.username || url.password)
    return bad("url must not carry credentials; receivers verify the webhook-signature header instead");
  if (!url.hostname) return bad("url has no host");
  const literal = ipLiteral(url.hostname);
  // An IP address is checked now, for a clear answer. A host name is checked when each message
  // is sent, against every address it resolves to then (names can change what they point at).
  if (!policy.allowPrivate && literal && classifyAddress(literal) === "blocked")
    return bad("url targets a loopback, private, link-local or reserved address");
  if (!hostAllowed(url.hostname, policy.allowedHosts))
    return bad("url's host is not in this instance's list of allowed webhook hosts");
  return [];
}

/** Subscribed names, deduplicated, in the order given. Unknown names are a schema error (400). */
export function normalizeEvents(events: string[]): { events: SubscribableEvent[]; problems: FieldError[] } {
  const problems: FieldError[] = [];
  const out: SubscribableEvent[] = [];
  if (!events.length)
    problems.push({
      field: "events",
      code: "MIN_SIZE_REQUIRED",
      message: "events needs at least one event name",
      min: 1,
    });
  events.forEach((name, i) => {
    if (!isSubscribable(name))
      problems.push({
        field: `events[${i}]`,
        code: "INVALID_ENUM",
        message: `events must be among: ${SUBSCRIBABLE_EVENTS.join(", ")}`,
      });
    else if (!out.includes(name)) out.push(name);
  });
  return { events: out, problems };
}

/** A new secret in the Standard Webhooks form: `whsec_` + base64 of 32 random bytes. */
export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(GENERATED_SECRET_BYTES).toString("base64");
}

/** A caller's secret must be `whsec_` + base64 of 24 to 64 bytes (422 otherwise). */
export function checkSecret(secret: string): FieldError[] {
  const bad = (message: string): FieldError[] => [{ field: "secret", code: "INVALID_FORMAT", message }];
  if (!secret.startsWith(SECRET_PREFIX)) return bad("secret must have the Standard Webhooks form whsec_<base64>");
  const body = secret.slice(SECRET_PREFIX.length);
  if (!BASE64_RE.test(body) || body.length % 4 !== 0) return bad("secret must be whsec_ followed by standard base64");
  const bytes = Buffer.from(body, "base64").length;
  if (bytes < MIN_SECRET_BYTES || bytes > MAX_SECRET_BYTES)
    return bad(`secret must encode ${MIN_SECRET_BYTES} to ${MAX_SECRET_BYTES} random bytes (found ${bytes})`);
  return [];
}

/** Ping and redelivery refuse a disabled endpoint with this. */
export function disabledWebhookError() {
  return errors.unprocessable([
    {
      field: "webhook_id",
      code: "INVALID_FORMAT",
      message: 'the webhook is disabled; re-enable it with PATCH /v1/webhooks/{id} {"status": "active"}',
    },
  ]);
}
