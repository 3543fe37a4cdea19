import { describe, expect, it } from "@jest/globals";
import { Webhook } from "standardwebhooks";
import { checkSecret, checkUrl, generateSecret, hostAllowed, normalizeEvents } from "./endpoint.js";

const strict = { allowHttp: false, allowPrivate: false };

describe("webhook URLs", () => {
  it("accepts public https URLs", () => {
    expect(checkUrl("https://ci.example.com/hooks/verdict?token=abc", strict)).toEqual([]);
  });

  it.each([
    ["http://ci.example.com/hook", "https"],
    ["ftp://ci.example.com/hook", "https"],
    ["https://user:pw@ci.example.com/hook", "credentials"],
    ["https://127.0.0.1/hook", "loopback"],
    ["https://169.254.169.254/latest/meta-data", "link-local"],
    ["https://[::1]/hook", "loopback"],
    ["https://10.1.2.3/hook", "private"],
    ["https://[::ffff:10.1.2.3]/hook", "private"],
  ])("refuses %s", (url, why) => {
    const problems = checkUrl(url, strict);
    expect(problems).toEqual([expect.objectContaining({ field: "url", code: "INVALID_FORMAT" })]);
    expect(problems[0]!.message).toContain(why);
  });

  it("leaves host names to the check at connect time", () => {
    expect(checkUrl("https://localhost:8443/hook", strict)).toEqual([]);
  });

  it("allows http and private targets only where the instance says so", () => {
    expect(checkUrl("http://127.0.0.1:9000/hook", { allowHttp: true, allowPrivate: true })).toEqual([]);
    expect(checkUrl("http://127.0.0.1:9000/hook", { allowHttp: true, allowPrivate: false })).toHaveLength(1);
  });

  it("honours an allowlist of hosts", () => {
    expect(hostAllowed("hooks.acme.com", ["*.acme.com"])).toBe(true);
    expect(hostAllowed("acme.com.evil.net", ["*.acme.com"])).toBe(false);
    expect(hostAllowed("ci.acme.com", ["ci.acme.com"])).toBe(true);
    expect(checkUrl("https://evil.example/hook", { ...strict, allowedHosts: ["*.acme.com"] })[0]!.message).toContain(
      "allowed webhook hosts",
    );
  });
});

describe("events", () => {
  it("deduplicates known names and rejects unknown ones with their index", () => {
    expect(normalizeEvents(["policy.violation", "policy.violation", "evaluation.completed"])).toEqual({
      events: ["policy.violation", "evaluation.completed"],
      problems: [],
    });
    expect(normalizeEvents(["evaluation.completed", "evaluation.started"]).problems).toEqual([
      expect.objectContaining({ field: "events[1]", code: "INVALID_ENUM" }),
    ]);
    expect(normalizeEvents([]).problems).toEqual([
      expect.objectContaining({ field: "events", code: "MIN_SIZE_REQUIRED" }),
    ]);
  });
});

describe("secrets", () => {
  it("generates Standard Webhooks secrets the reference library accepts", () => {
    const secret = generateSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(checkSecret(secret)).toEqual([]);
    expect(() => new Webhook(secret)).not.toThrow();
    expect(generateSecret()).not.toBe(secret);
  });

  it("accepts whsec_ secrets of 24 to 64 bytes only", () => {
    expect(checkSecret(`whsec_${Buffer.alloc(24, 7).toString("base64")}`)).toEqual([]);
    expect(checkSecret(`whsec_${Buffer.alloc(23, 7).toString("base64")}`)[0]!.message).toContain("found 23");
    expect(checkSecret(`whsec_${Buffer.alloc(65, 7).toString("base64")}`)[0]!.message).toContain("found 65");
    expect(checkSecret("my-shared-secret")[0]!.message).toContain("whsec_");
    expect(checkSecret("whsec_abc")[0]!.code).toBe("INVALID_FORMAT");
  });
});
