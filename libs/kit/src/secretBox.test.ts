import { randomBytes } from "node:crypto";
import { describe, expect, it } from "@jest/globals";
import { parseMasterKey, SecretBox } from "./secretBox.js";

describe("secrets at rest", () => {
  const key = randomBytes(32);
  const box = new SecretBox(key);

  it("round-trips and never stores the plaintext", () => {
    const sealed = box.seal("whsec_c2VjcmV0", "wh_1");
    expect(sealed).not.toContain("whsec_");
    expect(sealed).not.toContain("c2VjcmV0");
    expect(box.open(sealed, "wh_1")).toBe("whsec_c2VjcmV0");
    expect(box.seal("whsec_c2VjcmV0", "wh_1")).not.toBe(sealed);
  });

  it("refuses another key, another webhook, or a tampered value", () => {
    const sealed = box.seal("whsec_c2VjcmV0", "wh_1");
    expect(() => new SecretBox(randomBytes(32)).open(sealed, "wh_1")).toThrow();
    expect(() => box.open(sealed, "wh_2")).toThrow();
    const parts = sealed.split(":");
    parts[3] = Buffer.from("tampered").toString("base64");
    expect(() => box.open(parts.join(":"), "wh_1")).toThrow();
  });

  it("parses master keys of exactly 32 bytes in base64", () => {
    expect(parseMasterKey(key.toString("base64"))).toEqual(key);
    expect(parseMasterKey(key.toString("base64url"))).toEqual(key);
    expect(() => parseMasterKey(randomBytes(16).toString("base64"))).toThrow("32 bytes");
    expect(() => parseMasterKey("not base64!")).toThrow("base64");
  });
});
