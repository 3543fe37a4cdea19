import { describe, expect, it } from "@jest/globals";
import { loopbackOrigin } from "./servers.js";

describe("the issuer without a public URL", () => {
  it("is the request's origin on the loopback names of the port it arrived on", () => {
    expect(loopbackOrigin("http", "127.0.0.1:8080", 8080)).toBe("http://127.0.0.1:8080");
    expect(loopbackOrigin("http", "LOCALHOST:8080", 8080)).toBe("http://localhost:8080");
    expect(loopbackOrigin("http", "[::1]:8080", 8080)).toBe("http://[::1]:8080");
    expect(loopbackOrigin("http", "localhost", 80)).toBe("http://localhost");
    expect(loopbackOrigin("https", "localhost", 443)).toBe("https://localhost");
  });

  it.each([
    ["attacker.example", 80],
    ["attacker.example:8080", 8080],
    ["localhost:9999", 8080],
    ["localhost", 8080],
    ["localhost:08080", 8080],
    ["localhost.attacker.example:8080", 8080],
    ["127.0.0.1:8080@attacker.example", 8080],
    [undefined, 8080],
  ])("refuses Host %j on port %d", (host, port) => expect(loopbackOrigin("http", host, port)).toBeUndefined());
});
