// Standard Webhooks headers (https://www.standardwebhooks.com): webhook-id, webhook-timestamp
// (Unix seconds of this attempt) and webhook-signature ("v1," + base64 HMAC-SHA256 of
// "<id>.<timestamp>.<body>" keyed with the decoded secret). Signed with the reference library,
// the one receivers verify with.
import { Webhook } from "standardwebhooks";

export function signatureHeaders(secret: string, messageId: string, at: Date, body: string): Record<string, string> {
  const seconds = Math.floor(at.getTime() / 1000);
  return {
    "webhook-id": messageId,
    "webhook-timestamp": String(seconds),
    // The library signs with the whole-second timestamp it is given.
    "webhook-signature": new Webhook(secret).sign(messageId, new Date(seconds * 1000), body),
  };
}
