// The engine's tests share these: a policy built from partial patterns, a few policies, and a scan.
import { compileEngine, type PatternToRun, type PolicyToRun } from "../src/domain/engine.js";

export function policy(id: string, patterns: Partial<PatternToRun>[], severity = "error"): PolicyToRun {
  return {
    id,
    severity,
    category: "test",
    suggestion: `fix ${id}`,
    patterns: patterns.map((p, i) => ({
      value: "",
      message: `${id} found`,
      redact: false,
      redact_group: 0,
      rule_id: `${id}-${i + 1}`,
      keywords: [],
      min_entropy: 0,
      paths: [],
      allowlist: [],
      generic: false,
      ...p,
    })),
    exclude_paths: [],
  };
}

export const evalPolicy = policy("dangerous-eval", [{ value: String.raw`\beval\s*\(` }], "warning");
export const awsKey = "AKIAZ7VQ3X4M2N8P5R6T";
export const awsPolicy = policy("aws-credentials", [
  { value: String.raw`\b(?:AKIA|ASIA)[A-Z0-9]{16}\b`, redact: true },
]);
export const passwordPolicy = policy("hardcoded-credentials", [
  { value: String.raw`(?i)password\s*=\s*"([^"]{4,})"`, redact: true, redact_group: 1 },
]);

export const scanFile = (path: string, content: string, policies: PolicyToRun[], limit?: number) =>
  compileEngine(policies).scan(path, Buffer.from(content, "utf8"), {
    allowSuppression: true,
    ...(limit !== undefined ? { limit } : {}),
  });
export const scan = (content: string, policies: PolicyToRun[] = [evalPolicy]) =>
  scanFile("src/app.ts", content, policies).findings;
