import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { DEFAULT_URL, resolveConfig, writeStoredConfig } from "./config.js";

function withStored(url: string, key: string) {
  const file = join(mkdtempSync(join(tmpdir(), "verdict-config-")), "verdict", "config.json");
  writeStoredConfig({ url, api_key: key }, file);
  return file;
}

describe("configuration", () => {
  it("stores the login privately", () => {
    const file = withStored("http://a:8080", "k1");
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("prefers the environment, variable by variable", () => {
    const file = withStored("http://a:8080", "k1");
    expect(resolveConfig({ VERDICT_CONFIG_FILE: file })).toMatchObject({
      url: "http://a:8080",
      apiKey: "k1",
      source: "config file",
    });
    expect(resolveConfig({ VERDICT_CONFIG_FILE: file, VERDICT_API_KEY: "k2" })).toMatchObject({
      url: "http://a:8080",
      apiKey: "k2",
    });
    expect(resolveConfig({ VERDICT_CONFIG_FILE: file, VERDICT_URL: "http://a:8080/v1/" })).toMatchObject({
      apiKey: "k1",
    });
    expect(resolveConfig({ VERDICT_CONFIG_FILE: join(tmpdir(), "none", "config.json") })).toEqual({
      url: DEFAULT_URL,
      apiKey: undefined,
      source: "default",
    });
  });

  it("never sends a stored key to another server", () => {
    const file = withStored("http://a:8080", "k1");
    expect(resolveConfig({ VERDICT_CONFIG_FILE: file, VERDICT_URL: "http://evil.example.com" })).toMatchObject({
      url: "http://evil.example.com",
      apiKey: undefined,
    });
  });
});
