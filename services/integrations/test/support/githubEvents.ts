import { createHmac } from "node:crypto";
import { createRequire } from "node:module";

/** One recorded delivery of @octokit/webhooks-examples (payloads GitHub sent, kept by Octokit). */
export interface RecordedEvent {
  name: string;
  payload: Record<string, unknown> & { action?: string };
}

const require = createRequire(import.meta.url);

/** Every recorded example of the named events, for github.com. */
export function recordedEvents(...names: string[]): RecordedEvent[] {
  const all = require("@octokit/webhooks-examples") as Array<{ name: string; examples: RecordedEvent["payload"][] }>;
  return all
    .filter((e) => names.includes(e.name))
    .flatMap((e) => e.examples.map((payload) => ({ name: e.name, payload })));
}

/**
 * The headers GitHub sends with a delivery, signed as GitHub signs it: X-Hub-Signature-256 is
 * "sha256=" and the hex HMAC-SHA256 of the raw body under the webhook secret (GitHub's
 * "Validating webhook deliveries"), computed here with node:crypto, not with the library under test.
 */
export function githubDelivery(
  event: string,
  body: Buffer | string,
  secret: string,
  deliveryId: string = crypto.randomUUID(),
) {
  const raw = Buffer.isBuffer(body) ? body : Buffer.from(body);
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "x-github-event": event,
    "x-github-delivery": deliveryId,
    "x-github-hook-id": "1",
    "x-hub-signature-256": `sha256=${createHmac("sha256", secret).update(raw).digest("hex")}`,
  };
  return { headers, body: raw };
}
