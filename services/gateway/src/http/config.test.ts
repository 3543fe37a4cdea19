import { describe, expect, it } from "@jest/globals";
import { ConfigError, loadConfig } from "@verdict/kit";
import { gatewayHttpConfig } from "./config.js";

const read = (env: Record<string, string>) => loadConfig(gatewayHttpConfig, env);

describe("gateway HTTP hardening variables", () => {
  it("reads VERDICT_TRUST_PROXY as express trust-proxy settings, never 'trust every hop'", () => {
    expect(read({}).VERDICT_TRUST_PROXY).toBe(false);
    expect(read({ VERDICT_TRUST_PROXY: "false" }).VERDICT_TRUST_PROXY).toBe(false);
    // `true` used to trust every hop (the client-written left-most address): now one proxy.
    expect(read({ VERDICT_TRUST_PROXY: "true" }).VERDICT_TRUST_PROXY).toBe(1);
    expect(read({ VERDICT_TRUST_PROXY: "2" }).VERDICT_TRUST_PROXY).toBe(2);
    expect(read({ VERDICT_TRUST_PROXY: "10.0.0.0/8, loopback,192.168.1.7,fd00::/8" }).VERDICT_TRUST_PROXY).toEqual([
      "10.0.0.0/8",
      "loopback",
      "192.168.1.7",
      "fd00::/8",
    ]);
  });

  it("names a bad VERDICT_TRUST_PROXY entry", () => {
    expect(() => read({ VERDICT_TRUST_PROXY: "10.0.0.0/33,everyone" })).toThrow(ConfigError);
    expect(() => read({ VERDICT_TRUST_PROXY: "10.0.0.0/33,everyone" })).toThrow(
      /VERDICT_TRUST_PROXY: .*not: 10\.0\.0\.0\/33, everyone/,
    );
  });

  it("has bounded request and header timeouts and no metrics port by default", () => {
    const c = read({});
    expect(c).toMatchObject({
      VERDICT_REQUEST_TIMEOUT_MS: 60_000,
      VERDICT_HEADERS_TIMEOUT_MS: 10_000,
      VERDICT_METRICS_HOST: "127.0.0.1",
    });
    expect(c.VERDICT_METRICS_PORT).toBeUndefined();
    expect(read({ VERDICT_METRICS_PORT: "9464" }).VERDICT_METRICS_PORT).toBe(9464);
    expect(() => read({ VERDICT_REQUEST_TIMEOUT_MS: "0" })).toThrow(/VERDICT_REQUEST_TIMEOUT_MS/);
  });
});
