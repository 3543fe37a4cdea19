import { createHmac } from "node:crypto";
import { describe, expect, it } from "@jest/globals";
import { Webhook } from "standardwebhooks";
import { generateSecret } from "./endpoint.js";
import { messageBody } from "./events.js";
import { signatureHeaders } from "./signing.js";

describe("Standard Webhooks signatures", () => {
  const secret = generateSecret();
  const body = messageBody(
    "msg_01jd0000000000000000000000",
    "webhook.ping",
    { message: "hi" },
    "2026-01-01T00:00:00.000Z",
  );

  it("verify with the standardwebhooks library", () => {
    const headers = signatureHeaders(secret, "msg_01jd0000000000000000000000", new Date(), body);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(generateSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(secret).verify(body.replace("hi", "ho"), headers)).toThrow();
  });

  it("are HMAC-SHA256 of id.timestamp.body with the decoded secret, as the specification writes it", () => {
    const at = new Date("2026-03-04T05:06:07.890Z");
    const headers = signatureHeaders(secret, "msg_x", at, body);
    expect(headers["webhook-id"]).toBe("msg_x");
    expect(headers["webhook-timestamp"]).toBe(String(Math.floor(at.getTime() / 1000)));
    const expected = createHmac("sha256", Buffer.from(secret.slice("whsec_".length), "base64"))
      .update(`msg_x.${headers["webhook-timestamp"]}.${body}`)
      .digest("base64");
    expect(headers["webhook-signature"]).toBe(`v1,${expected}`);
  });

  it("carry the body fields event, data, id and timestamp", () => {
    expect(JSON.parse(body)).toEqual({
      event: "webhook.ping",
      data: { message: "hi" },
      id: "msg_01jd0000000000000000000000",
      timestamp: "2026-01-01T00:00:00.000Z",
    });
  });
});
