import { describe, expect, it } from "@jest/globals";
import { checksummedTokenValid, mintChecksummedToken } from "@verdict/kit";
import { clientSecretWellFormed, generateClientSecret, redirectUriErrors, redirectUriProblem } from "./oauthClient.js";
import { scopesWithinRole } from "./member.js";
import { artifactStorageId, presentedArtifactPayload, storedArtifactPayload } from "./oauthToken.js";

describe("redirect URIs", () => {
  it.each([
    "https://app.example.com/callback",
    "https://app.example.com:8443/cb?tenant=1",
    "http://localhost:8123/cb",
    "http://127.0.0.1/cb",
    "http://[::1]:9000/cb",
  ])("accepts %s", (uri) => expect(redirectUriProblem(uri)).toBeNull());

  it.each([
    ["http://app.example.com/cb", /https/],
    ["https://app.example.com/cb#x", /fragment/],
    ["https://app.example.com/cb#", /fragment/],
    ["https://*.example.com/cb", /wildcard/],
    ["https://app.example.com/*", /wildcard/],
    ["//app.example.com/cb", /absolute/],
    ["javascript:alert(1)", /https/],
    ["https://u:p@app.example.com/cb", /user information/],
    ["http://localhost.evil.test/cb", /https/],
    ["https:///cb", /host/],
    ["https:/app.example.com/cb", /host/],
    ["https://app.example.com/\u202Ecb", /ASCII/],
    ["https://app.example.com/cb\n", /ASCII/],
    ["https://app.example.com/c b", /ASCII/],
    ["https://app.example.com\\@evil.example/cb", /backslash/],
  ])("refuses %j", (uri, why) => expect(redirectUriProblem(uri)).toMatch(why));

  it("names each refused URI by its position", () => {
    expect(redirectUriErrors(["https://ok.test/cb", "http://bad.test/cb"])).toEqual([
      expect.objectContaining({ field: "redirect_uris[1]", code: "INVALID_FORMAT" }),
    ]);
  });
});

describe("secrets and tokens", () => {
  it("mints client secrets whose checksum holds and catches a typo", () => {
    const s = generateClientSecret();
    expect(s).toMatch(/^vdt_ocs_[0-9A-Za-z]{38}$/);
    expect(clientSecretWellFormed(s)).toBe(true);
    expect(clientSecretWellFormed(s.slice(0, 10) + (s[10] === "a" ? "b" : "a") + s.slice(11))).toBe(false);
  });

  it("mints checksummed tokens for a prefix only", () => {
    const t = mintChecksummedToken("vdt_oat_");
    expect(checksummedTokenValid("vdt_oat_", t)).toBe(true);
    expect(checksummedTokenValid("vdt_ort_", t)).toBe(false);
    expect(checksummedTokenValid("vdt_oat_", t.slice(0, -1))).toBe(false);
  });
});

describe("scopes within the role", () => {
  it("keeps what the role holds now; admin holds everything", () => {
    const member = ["read:evaluations", "read:policies", "read:org", "write:evaluations"];
    expect(scopesWithinRole(["read:evaluations", "write:org"], member)).toEqual(["read:evaluations"]);
    // an admin grant is every scope: within a member's role, the member's scopes
    expect(scopesWithinRole(["admin"], member).sort()).toEqual([...member].sort());
    expect(scopesWithinRole(["admin"], ["admin"])).toContain("admin");
    expect(scopesWithinRole(["read:org"], ["admin"])).toEqual(["read:org"]);
    expect(scopesWithinRole(["read:org"], [])).toEqual([]);
  });
});

describe("OAuth artifacts at rest", () => {
  it("keep a token or code only as a hash of its value, and give the value back from the one presented", () => {
    const token = mintChecksummedToken("vdt_oat_");
    const id = artifactStorageId("AccessToken", token);
    expect(id).toMatch(/^AccessToken:sha256:[0-9a-f]{64}$/);
    expect(id).not.toContain(token);
    for (const model of ["RefreshToken", "AuthorizationCode"])
      expect(artifactStorageId(model, token)).not.toContain(token);
    // Grants and interactions are looked up by ids that are no credential.
    expect(artifactStorageId("Grant", "g1")).toBe("Grant:g1");
    const stored = storedArtifactPayload("AccessToken", { jti: token, accountId: "org_1.user_1", kind: "AccessToken" });
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(presentedArtifactPayload("AccessToken", token, stored)).toEqual({
      jti: token,
      accountId: "org_1.user_1",
      kind: "AccessToken",
    });
    expect(storedArtifactPayload("Grant", { jti: "g1" })).toEqual({ jti: "g1" });
  });
});
