import { describe, expect, it } from "@jest/globals";
import { compileEngine, type PolicyToRun } from "./engine.js";
import { fingerprintOf, normalizeMatch } from "./fingerprint.js";

const policies: PolicyToRun[] = [
  {
    id: "hardcoded-credentials",
    severity: "error",
    category: "secrets",
    suggestion: "use a secret store",
    exclude_paths: [],
    patterns: [
      {
        value: String.raw`(?i)password\s*=\s*"([^"]{4,})"`,
        message: "password found",
        redact: true,
        redact_group: 1,
        rule_id: "password-assignment",
        keywords: ["password"],
        min_entropy: 0,
        paths: [],
        allowlist: [],
        generic: false,
      },
    ],
  },
];
const engine = compileEngine(policies);
const fingerprints = (path: string, content: string) =>
  engine.scan(path, Buffer.from(content), { allowSuppression: true }).findings.map((f) => f.fingerprint);

describe("a finding's fingerprint", () => {
  const secret = "Tr0ub4dor&3-horse";
  const original = `const a = 1;\nconst password = "${secret}";\n`;
  const [fp] = fingerprints("src/db.js", original);

  it("is 32 hex characters that never contain the secret", () => {
    expect(fp).toMatch(/^[0-9a-f]{32}$/);
    expect(fp).not.toContain(secret);
  });

  it("stays when the line moves, other lines change, or the line is re-indented or reworded around the secret", () => {
    expect(fingerprints("src/db.js", `// header\n\n${original}const b = 2;\n`)).toEqual([fp]);
    expect(fingerprints("src/db.js", `export function f() {\n    let   password = "${secret}";\n}\n`)).toEqual([fp]);
  });

  it("changes with the secret, the file, or the policy and rule", () => {
    expect(fingerprints("src/db.js", original.replace(secret, "correct-horse-battery"))).not.toEqual([fp]);
    expect(fingerprints("src/db2.js", original)).not.toEqual([fp]);
    const other = fingerprintOf({ policy_id: "p2", rule_id: "password-assignment", file: "src/db.js" }, secret);
    expect(other).not.toBe(fp);
    expect(
      fingerprintOf({ policy_id: "hardcoded-credentials", rule_id: "password-assignment", file: "src/db.js" }, secret),
    ).toBe(fp);
  });

  it("compares matched text with white space runs as one space", () => {
    expect(normalizeMatch("  eval (\n\t x)  ")).toBe("eval ( x)");
  });
});
