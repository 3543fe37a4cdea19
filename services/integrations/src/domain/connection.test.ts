import { describe, expect, it } from "@jest/globals";
import { generateKeyPairSync } from "node:crypto";
import { checkConnectionInput, connectionOptional } from "./connection.js";

const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
const pkcs1 = rsa.export({ type: "pkcs1", format: "pem" }).toString();
const pkcs8 = rsa.export({ type: "pkcs8", format: "pem" }).toString();
const ec = generateKeyPairSync("ec", { namedCurve: "P-256" })
  .privateKey.export({ type: "pkcs8", format: "pem" })
  .toString();
const github = {
  provider: "github",
  base_url: "https://api.github.com",
  token: "",
  webhook_secret: "0123456789abcdef0123",
  app_id: "123456",
  private_key: pkcs1,
};
const fields = (input: Parameters<typeof checkConnectionInput>[0]) =>
  checkConnectionInput(input).map((p) => [p.field, p.code]);

describe("a GitHub App connection's input", () => {
  it("takes the App's id and its RSA private key, PKCS#1 as GitHub issues it or PKCS#8", () => {
    expect(fields(github)).toEqual([]);
    expect(fields({ ...github, private_key: pkcs8 })).toEqual([]);
    expect(fields({ ...github, base_url: "https://github.example.com/api/v3" })).toEqual([]);
  });

  it("refuses a missing or malformed id or key, an EC key, and a token", () => {
    expect(fields({ ...github, app_id: "", private_key: "" })).toEqual([
      ["app_id", "REQUIRED"],
      ["private_key", "REQUIRED"],
    ]);
    expect(fields({ ...github, app_id: "my-app" })).toEqual([["app_id", "INVALID_FORMAT"]]);
    expect(fields({ ...github, private_key: pkcs1.replace(/[A-Za-z]{8}\n/, "\n") })).toEqual([
      ["private_key", "INVALID_FORMAT"],
    ]);
    expect(fields({ ...github, private_key: ec })).toEqual([["private_key", "INVALID_FORMAT"]]);
    expect(fields({ ...github, private_key: "x".repeat(16_385) })).toEqual([["private_key", "MAX_SIZE_EXCEEDED"]]);
    expect(fields({ ...github, token: "ghp_0123456789" })).toEqual([["token", "INVALID_FORMAT"]]);
  });
});

describe("a Gitea connection's input", () => {
  it("takes a token, not a GitHub App's id or key", () => {
    const gitea = {
      provider: "gitea",
      base_url: "https://gitea.example.com",
      token: "t",
      webhook_secret: github.webhook_secret,
    };
    expect(fields(gitea)).toEqual([]);
    expect(fields({ ...gitea, token: "" })).toEqual([["token", "REQUIRED"]]);
    expect(fields({ ...gitea, app_id: "1" })).toEqual([["app_id", "INVALID_FORMAT"]]);
  });
});

describe("a GitLab connection's input", () => {
  it("takes an access token and the hook's secret token, not a GitHub App's id or key", () => {
    const gitlab = {
      provider: "gitlab",
      base_url: "https://gitlab.com",
      token: "glpat-0123456789",
      webhook_secret: github.webhook_secret,
    };
    expect(fields(gitlab)).toEqual([]);
    expect(fields({ ...gitlab, token: "" })).toEqual([["token", "REQUIRED"]]);
    expect(fields({ ...gitlab, private_key: "k" })).toEqual([["private_key", "INVALID_FORMAT"]]);
    expect(fields({ ...gitlab, provider: "bitbucket" })).toEqual([["provider", "INVALID_ENUM"]]);
  });
});

describe("connectionOptional", () => {
  it("is GitHub's and GitLab's: their repositories were named before connections existed", () => {
    expect(connectionOptional("github")).toBe(true);
    expect(connectionOptional("gitlab")).toBe(true);
    expect(connectionOptional("gitea")).toBe(false);
  });
});
