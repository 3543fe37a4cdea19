import { describe, expect, it } from "@jest/globals";
import { credentialsToCheck, lineFrom, notChecked, PerOrganizationRate, strongerState } from "./liveVerification.js";

const ID = "AKIAZ7Q2M4N6P8R3T5V7";
const SECRET = "q8Hc1Ue4Xw/Vb7Ny2Lp5Rt9Kd3Mf6Gs0Ja+ZxYwB";
const OTHER_SECRET = "Zz8Hc1Ue4Xw/Vb7Ny2Lp5Rt9Kd3Mf6Gs0Ja+ZxYw";

const file = (path: string, text: string) => ({ path, content: Buffer.from(text, "utf8") });
const violation = (file: string, rule_id: string, line: number, column: number) => ({ file, rule_id, line, column });

describe("lineFrom", () => {
  it("reads a line from a column counted in code points", () => {
    const content = Buffer.from("first\n🔑 key = AKIA\nlast", "utf8");
    expect(lineFrom(content, 2, 3)).toBe("key = AKIA");
    expect(lineFrom(content, 3, 1)).toBe("last");
    expect(lineFrom(content, 9, 1)).toBe("");
  });
});

describe("credentialsToCheck", () => {
  it("pairs an access key id with the secret access key found nearest to it in the same file", () => {
    const text = `# prod\naws_access_key_id = ${ID}\naws_secret_access_key = "${SECRET}"\n\n\n\n\nsecret_access_key: ${OTHER_SECRET}\n`;
    const { checks, unchecked } = credentialsToCheck(
      [file("creds.ini", text)],
      [
        violation("creds.ini", "aws-access-key-id", 2, 21),
        violation("creds.ini", "aws-secret-access-key", 3, 1),
        violation("creds.ini", "aws-secret-access-key", 8, 1),
        violation("creds.ini", "sql-injection", 1, 1),
      ],
    );
    expect(checks).toEqual([
      { credential: { provider: "aws", accessKeyId: ID, secretAccessKey: SECRET }, violations: [0, 1] },
    ]);
    // The far secret is in no pair: nothing to ask with. A rule no provider verifies is not here.
    expect(unchecked).toEqual([2]);
  });

  it("never pairs across files, and asks once for a credential found twice", () => {
    const text = `id=${ID}\nAWS_SECRET_ACCESS_KEY=${SECRET}\n`;
    const { checks, unchecked } = credentialsToCheck(
      [file("a.env", text), file("b.env", text), file("c.env", `id=${ID}\n`)],
      [
        violation("a.env", "aws-access-key-id", 1, 4),
        violation("a.env", "aws-secret-access-key", 2, 1),
        violation("b.env", "aws-access-key-id", 1, 4),
        violation("b.env", "aws-secret-access-key", 2, 1),
        violation("c.env", "aws-access-key-id", 1, 4),
      ],
    );
    expect(checks).toHaveLength(1);
    expect(checks[0]!.violations).toEqual([0, 1, 2, 3]);
    expect(unchecked).toEqual([4]);
  });

  it("reads a GitHub token at its violation's place, one check per token", () => {
    const token = `ghp_${"a".repeat(36)}`;
    const { checks, unchecked } = credentialsToCheck(
      [file("ci.env", `GH_TOKEN=${token}\nAGAIN=${token}\n`)],
      [violation("ci.env", "github-classic-token", 1, 10), violation("ci.env", "github-classic-token", 2, 7)],
    );
    expect(checks).toEqual([{ credential: { provider: "github", token }, violations: [0, 1] }]);
    expect(unchecked).toEqual([]);
  });

  it("reads Slack bot and user tokens and Stripe secret and restricted keys; not a Slack refresh token", () => {
    const bot = "xoxb-1234567890-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx";
    const user = "xoxp-1234567890-1234567890-1234567890-0123456789abcdef0123456789abcdef";
    const refresh = "xoxe-1234567890-1234567890-1234567890-0123456789abcdef0123456789abcdef";
    const stripe = "sk_live_Q7mZ2xW9vB4nK8pL3sT6yR1c";
    const restricted = "rk_test_51Hx0AbCdEfGhIjKlMnOpQrSt";
    const text = `SLACK=${bot}\nuser: ${user}\nrefresh: ${refresh}\nSTRIPE=${stripe}\nkey = "${restricted}"\n`;
    const found: [string, number, number][] = [
      ["slack-bot-token", 1, 7],
      ["slack-user-token", 2, 7],
      ["slack-user-token", 3, 10],
      ["stripe-live-secret-key", 4, 8],
      ["stripe-test-secret-key", 5, 8],
    ];
    const at = found.map(([rule, line, column]) => violation("app.env", rule, line, column));
    const { checks, unchecked } = credentialsToCheck([file("app.env", text)], at);
    expect(checks).toEqual([
      { credential: { provider: "slack", token: bot }, violations: [0] },
      { credential: { provider: "slack", token: user }, violations: [1] },
      { credential: { provider: "stripe", token: stripe }, violations: [3] },
      { credential: { provider: "stripe", token: restricted }, violations: [4] },
    ]);
    // A refresh token is usable only where using it rotates it: nothing to ask with.
    expect(unchecked).toEqual([2]);
  });

  it("reads nothing where the violation's place holds no credential of the format", () => {
    const { checks, unchecked } = credentialsToCheck(
      [file("x.py", `id = "akia-lowercase-not-a-key"\naws_secret = short\n`)],
      [violation("x.py", "aws-access-key-id", 1, 7), violation("x.py", "aws-secret-access-key", 2, 1)],
    );
    expect(checks).toEqual([]);
    expect(unchecked).toEqual([0, 1]);
  });
});

describe("notChecked", () => {
  it("marks only the findings a provider could verify, for scans that ask none (offline)", () => {
    const findings = [
      { rule_id: "aws-access-key-id" },
      { rule_id: "generic-password" },
      { rule_id: "github-classic-token" },
    ];
    expect(notChecked(findings)).toEqual([
      { rule_id: "aws-access-key-id", verification: "not_checked" },
      { rule_id: "generic-password" },
      { rule_id: "github-classic-token", verification: "not_checked" },
    ]);
  });
});

describe("strongerState", () => {
  it("keeps the answer that says more", () => {
    expect(strongerState(undefined, "not_checked")).toBe("not_checked");
    expect(strongerState("revoked", "live")).toBe("live");
    expect(strongerState("live", "unknown")).toBe("live");
    expect(strongerState("not_checked", "unknown")).toBe("unknown");
  });
});

describe("PerOrganizationRate", () => {
  it("admits perMinute calls of each organization in a minute, then the next minute's", () => {
    let now = 0;
    const rate = new PerOrganizationRate(2, () => now);
    expect([rate.take("org_a"), rate.take("org_a"), rate.take("org_a")]).toEqual([true, true, false]);
    expect(rate.take("org_b")).toBe(true);
    now = 59_999;
    expect(rate.take("org_a")).toBe(false);
    now = 60_000;
    expect(rate.take("org_a")).toBe(true);
  });
});
