// The real matcher against the real built-in policies, as the policy service resolves them:
// each finds what it is for and stays quiet on look-alikes.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { startPolicyHarness, type PolicyHarness } from "../../policy/test/harness.js";
import { compilePolicies, scanFile, type CompiledPolicies } from "./domain/matcher.js";

let h: PolicyHarness;
beforeAll(async () => {
  h = await startPolicyHarness();
});
afterAll(() => h.stop());

async function compiled(policyId: string, organizationId = "org_builtins"): Promise<CompiledPolicies> {
  const { policies } = await h.client.resolvePolicies({ organization_id: organizationId, policy_ids: [policyId] });
  expect(policies.map((p) => p.id)).toEqual([policyId]);
  return compilePolicies(policies);
}

const findings = (policies: CompiledPolicies, content: string) => scanFile("sample.txt", content, policies).findings;

const CASES: { policy: string; truePositives: string[]; falsePositives: string[] }[] = [
  {
    policy: "aws-credentials",
    truePositives: ["aws_access_key_id = AKIAIOSFODNN7EXAMPLE", 'key: "ASIAY34FZKBOKMUTVV7A"', "ABIA1234567890ABCDEF", "(ACCAZZZZZZZZZZZZZZZZ)"],
    falsePositives: ["Keys start with AKIA", "AKIAIOSFODNN7EXAMPL", "XAKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE1", "akiaiosfodnn7example"],
  },
  {
    policy: "private-keys",
    truePositives: [
      "-----BEGIN RSA PRIVATE KEY-----",
      "-----BEGIN PRIVATE KEY-----",
      "-----BEGIN EC PRIVATE KEY-----",
      "-----BEGIN ENCRYPTED PRIVATE KEY-----",
      "-----BEGIN OPENSSH PRIVATE KEY-----",
      "-----BEGIN PGP PRIVATE KEY BLOCK-----",
    ],
    falsePositives: ["Keep the private key in a vault.", "-----BEGIN PUBLIC KEY-----", "-----BEGIN CERTIFICATE-----", "-----BEGIN PGP PUBLIC KEY BLOCK-----"],
  },
  {
    policy: "hardcoded-credentials",
    truePositives: ['password = "hunter22"', '{"password": "s3cr3t!!"}', "PASSWORD: 'correct horse'", 'db_password := "abcd"', "client_secret = 'xyz123'", 'pwd="p@ss"'],
    falsePositives: [
      'password = ""',
      'password = "abc"',
      'password = os.environ["PASSWORD"]',
      'password = "${DB_PASSWORD}"',
      'password: "<changeme>"',
      'password = "********"',
      'if (password == "abcd") {}',
      "Set a strong password for the account.",
      'api_key = "sk_live_abcdef1234567890"',
    ],
  },
  {
    policy: "dangerous-eval",
    truePositives: ["eval(userInput)", "const f = new Function('a', 'return a')", "window.eval (code)", "x=eval(y)"],
    falsePositives: ["evaluate(x)", "// the evaluation ran", "medieval(", "retrieval()", "const Function = 1", "eval"],
  },
];

describe.each(CASES)("$policy", ({ policy, truePositives, falsePositives }) => {
  it.each(truePositives)("finds %s", async (sample) => {
    expect(findings(await compiled(policy), sample).map((f) => f.policy_id)).toEqual([policy]);
  });

  it.each(falsePositives)("ignores %s", async (sample) => {
    expect(findings(await compiled(policy), sample)).toEqual([]);
  });
});

describe("hardcoded-credentials with detect_api_keys", () => {
  it("finds API keys and tokens only once the setting is on", async () => {
    const org = "org_api_keys";
    const samples = ['api_key = "sk_live_abcdef1234567890"', 'ACCESS_TOKEN: "ghp_abcdefghijklmnop1234"', "{'apiKey': 'abcdefghijklmnop'}"];
    for (const s of samples) expect(findings(await compiled("hardcoded-credentials", org), s)).toEqual([]);
    await h.client.updatePolicy({ organization_id: org, policy_id: "hardcoded-credentials", settings: { detect_api_keys: true } });
    for (const s of samples) expect(findings(await compiled("hardcoded-credentials", org), s)).toHaveLength(1);
    expect(findings(await compiled("hardcoded-credentials", org), 'api_key = "short"')).toEqual([]);
  });
});

describe("built-in secrets are masked", () => {
  it("masks AWS keys, password values and key material on the same line", async () => {
    const [aws] = findings(await compiled("aws-credentials"), 'const id = "AKIAIOSFODNN7EXAMPLE";');
    expect(aws!.code_snippet).toBe('const id = "AKIA****";');
    const [password] = findings(await compiled("hardcoded-credentials"), 'DB = {"password": "hunter22"}');
    expect(password!.code_snippet).toBe('DB = {"password": "hu****"}');
    const oneLineKey = String.raw`key = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAvRHnL0sJ4xD2\nqG7d8f\n-----END RSA PRIVATE KEY-----"`;
    const [pem] = findings(await compiled("private-keys"), oneLineKey);
    // The captured key material starts with the escaped newline `\n`.
    expect(pem!.code_snippet).toBe(String.raw`key = "-----BEGIN RSA PRIVATE KEY-----\nMI****-----END RSA PRIVATE KEY-----"`);
    expect(pem!.code_snippet).not.toContain("AKCAQEA");
  });
});
