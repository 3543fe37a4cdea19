// The payment-tokens policy's report_test_keys setting, through the real library and engine:
// Stripe test-mode keys are reported by default, and an organization whose test fixtures hold
// them can switch that off without losing the live-key rule.
import { describe, expect, it } from "@jest/globals";
import { resolveBuiltins } from "@verdict/policy";
import { compileEngine } from "./domain/engine.js";

const file = Buffer.from(
  'const live = "sk_live_4eC39HqLyjWDarjtT1zdp7dc";\nconst test = "sk_test_51PqRzW2eZvKYlo2CJk7aBcD";\n',
);

function ruleIds(settings: Record<string, unknown> | undefined): string[] {
  const policies = resolveBuiltins(settings ? { "payment-tokens": settings } : {}).filter(
    (p) => p.id === "payment-tokens",
  );
  const scan = compileEngine(policies).scan("billing.js", file, { allowSuppression: true });
  return scan.findings.map((f) => `${f.line}:${f.rule_id}`);
}

describe("payment-tokens report_test_keys", () => {
  it("reports Stripe test-mode keys by default", () => {
    expect(ruleIds(undefined)).toEqual(["1:stripe-live-secret-key", "2:stripe-test-secret-key"]);
  });

  it("reports only live keys when switched off", () => {
    expect(ruleIds({ report_test_keys: false })).toEqual(["1:stripe-live-secret-key"]);
  });
});
