import { describe, expect, it } from "@jest/globals";
import { CHECKS } from "./checks.js";
import { isEncodedText, isPlaceholder } from "./noise.js";

const b64 = (s: string) => Buffer.from(s).toString("base64");
const b64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
const check = (name: string, secret: string) =>
  CHECKS[name]!({
    secret,
    match: secret,
    path: "sample.txt",
    content: Buffer.from(secret),
    start: 0,
    end: secret.length,
  });

describe("encoded prose", () => {
  it("is base64 of words, spaces and punctuation", () => {
    expect(isEncodedText(b64("the quick brown fox jumps"))).toBe(true);
    expect(isEncodedText(b64("Hello, World!"))).toBe(true);
    expect(isEncodedText(Buffer.from("Please retry later.").toString("base64url"))).toBe(true);
  });

  it("is not an encoded credential, random bytes or a plain token", () => {
    expect(isEncodedText(b64("svc-deploy:7a081c0b27c4c7d4"))).toBe(false);
    expect(isEncodedText(Buffer.from([0x8f, 0x12, 0xee, 0x01, 0x7a, 0x44, 0x90, 0xc3, 0x05]).toString("base64"))).toBe(
      false,
    );
    expect(isEncodedText("Zf3D0LXCM3EIMbgJpUNnkRtOfOueHznB")).toBe(false);
    expect(isEncodedText("abc")).toBe(false);
  });

  it("is what the not-encoded-text check turns away", () => {
    expect(check("not-encoded-text", b64("the quick brown fox jumps"))).toBe(false);
    expect(check("not-encoded-text", "Zf3D0LXCM3EIMbgJpUNnkRtOfOueHznB")).toBe(true);
  });
});

describe("placeholders", () => {
  it("are runs of masking characters, also inside a token format", () => {
    expect(isPlaceholder("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx")).toBe(true);
    expect(isPlaceholder("sk_live_xxxxxxxxxxxxxxxxxxxxxxxx")).toBe(true);
    expect(isPlaceholder("ghp_****************************")).toBe(true);
    expect(isPlaceholder("Zf3D0LXCM3EIMbgJpUNnkRtOfOueHznB")).toBe(false);
  });
});

describe("base64-encoded JSON Web Tokens", () => {
  const jwt = `${b64url({ alg: "HS256", typ: "JWT" })}.${b64url({ sub: "svc-billing" })}.BydVkWlpu8R7cSY8rTk1l9KxVqv6T3R3CVVq763hjc8`;

  it("pass when the decoded token's header is a JSON object, even cut short", () => {
    expect(check("jwt-base64", b64(jwt))).toBe(true);
    const long = `${b64url({ jwk: { kty: "RSA", n: "jyTwiSJACtW_SW-aiihQS5Y5QR704zUwjhlevY0oK-y5wP7SlIc2hq2OPVRarCzjhOxZl2AQFzM5VCR7xRD" } })}.${b64url({ iss: "joe" })}.sig`;
    expect(check("jwt-base64", b64(long).slice(0, 120))).toBe(true);
  });

  it("fail when the decoded text is no token or its header no JSON", () => {
    expect(check("jwt-base64", b64("eyJ-this-is-not-a-token-at-all.just.text.padding"))).toBe(false);
    expect(check("jwt-base64", b64(`eyJzdnQiOn0.${b64url({ iss: "joe" })}.sig`))).toBe(false);
    expect(check("jwt-base64", b64("the quick brown fox jumps over the lazy dog"))).toBe(false);
  });
});

describe("HTTP Basic credentials", () => {
  it("pass when they decode to user:password with a password that is not a stand-in", () => {
    expect(check("basic-credentials", b64("svc-ledger:K7v!pQ2rT9x#Lm4w"))).toBe(true);
    expect(check("basic-credentials", b64("sk_live_51HqLyjWDarjtT1zdp7dc:"))).toBe(true);
  });

  it("fail for stand-in passwords, text without a colon and binary", () => {
    expect(check("basic-credentials", "dXNlcjpwYXNz")).toBe(false); // user:pass
    expect(check("basic-credentials", b64("admin:changeme"))).toBe(false);
    expect(check("basic-credentials", b64("just some words"))).toBe(false);
    expect(check("basic-credentials", Buffer.from([0x01, 0x3a, 0x8f, 0xff, 0x10]).toString("base64"))).toBe(false);
  });
});
