import { describe, expect, it } from "@jest/globals";
import { classifyAddress, ipLiteral } from "./addresses.js";

describe("addresses Verdict may reach", () => {
  it.each([
    "127.0.0.1",
    "127.9.9.9",
    "10.0.0.5",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "168.63.129.16",
    "224.0.0.1",
    "255.255.255.255",
    "198.18.0.1",
    "::1",
    "::",
    "fe80::1",
    "fc00::1",
    "fd00:ec2::254",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:169.254.169.254",
    "::ffff:a9fe:a9fe",
    "64:ff9b::a00:1",
    "2002:7f00:1::",
    "::127.0.0.1",
    "fe80::1%eth0",
    // IPv4-translated (SIIT): ::ffff:0:a.b.c.d
    "::ffff:0:127.0.0.1",
    "::ffff:0:7f00:1",
    "0:0:0:0:ffff:0:a9fe:a9fe",
    "::ffff:0:10.1.2.3",
    "::ffff:0:192.168.0.1",
  ])("refuses %s", (address) => expect(classifyAddress(address)).toBe("blocked"));

  it.each([
    "93.184.216.34",
    "8.8.8.8",
    "172.32.0.1",
    "100.128.0.1",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
    "::ffff:0:8.8.8.8",
    "2002:808:808::",
  ])("allows %s", (address) => {
    expect(classifyAddress(address)).toBe("public");
  });

  it("treats anything that is no IP address as blocked", () => expect(classifyAddress("localhost")).toBe("blocked"));

  it("recognises IP literals in URLs", () => {
    expect(ipLiteral("[::1]")).toBe("::1");
    expect(ipLiteral("10.1.2.3")).toBe("10.1.2.3");
    expect(ipLiteral("hooks.example.com")).toBeUndefined();
  });
});
