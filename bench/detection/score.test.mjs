// The pure parts of bench:detection: scoring arithmetic, sample normalisation, the claims table.
// Run with `node --test bench/detection/*.test.mjs` (after `pnpm run build`: insecure.mjs loads the built
// policy library to check the claims table names real policies).
import assert from "node:assert/strict";
import { test } from "node:test";
import { normaliseSamples } from "./gitleaks-samples.mjs";
import { applyClaims, CLAIMS } from "./insecure.mjs";
import { groupsWithoutRecall, maskSecret, percent, scoreCases, validElsewhere } from "./score.mjs";
import { FULL_BUILTIN_SETTINGS, resolveBuiltins } from "../common.mjs";

test("percent: one decimal, n/a on an empty denominator", () => {
  assert.equal(percent(1, 3), "33.3%");
  assert.equal(percent(5992, 5992), "100.0%");
  assert.equal(percent(0, 0), "n/a");
});

test("scoreCases counts recall on positives and flags on negatives, overall and per group", () => {
  const cases = [
    { group: "aws", positive: true, hit: true },
    { group: "aws", positive: true, hit: false },
    { group: "aws", positive: false, hit: true },
    { group: "slack", positive: true, hit: false },
    { group: "slack", positive: false, hit: false },
  ];
  const score = scoreCases(cases, (c) => c.hit);
  assert.deepEqual(score.total, { positives: 3, found: 1, negatives: 2, flagged: 1 });
  assert.deepEqual(score.groups.get("aws"), { positives: 2, found: 1, negatives: 1, flagged: 1 });
  assert.deepEqual(score.groups.get("slack"), { positives: 1, found: 0, negatives: 1, flagged: 0 });
  assert.deepEqual(groupsWithoutRecall(score), ["slack"]);
});

test("maskSecret keeps at most four characters at each end of a long secret", () => {
  const line = 'token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"';
  const start = line.indexOf("ghp_");
  const masked = maskSecret(line, start, line.length - 1);
  assert.equal(masked, `token = "ghp_${"*".repeat(32)}6789"`);
  assert.equal(maskSecret("pw=abc", 3, 6), "pw=***");
});

test("normaliseSamples sorts, drops duplicates and malformed entries, keeps paths", () => {
  const samples = normaliseSamples([
    { rule_id: "b-rule", family: "b", kind: "tp", text: "y" },
    { rule_id: "a-rule", family: "a", kind: "fp", text: "x", path: "f.php" },
    { rule_id: "b-rule", family: "b", kind: "tp", text: "y" },
    { rule_id: "c-rule", family: "c", kind: "maybe", text: "z" },
    { rule_id: "", family: "c", kind: "tp", text: "z" },
  ]);
  assert.deepEqual(samples, [
    { rule_id: "a-rule", family: "a", kind: "fp", text: "x", path: "f.php" },
    { rule_id: "b-rule", family: "b", kind: "tp", text: "y" },
  ]);
});

test("applyClaims keeps claimed cases with their policy and sets the others aside", () => {
  const c = (source, tool_rule, positive, content = "") => ({
    source,
    tool_rule,
    positive,
    files: [{ path: "main.go", content }],
  });
  const { inScope, outOfScope } = applyClaims([
    c("gosec", "G204", true),
    c("gosec", "G104", true),
    // G402 positives count only where the claim (disabled verification) applies.
    c("gosec", "G402", true, "tls.Config{MinVersion: tls.VersionSSL30}"),
    c("gosec", "G402", true, "tls.Config{InsecureSkipVerify: true}"),
    c("gosec", "G402", false, "tls.Config{MinVersion: tls.VersionTLS13}"),
  ]);
  assert.deepEqual(
    inScope.map((x) => [x.tool_rule, x.policy, x.positive]),
    [
      ["G204", "command-injection", true],
      ["G402", "tls-verification-disabled", true],
      ["G402", "tls-verification-disabled", false],
    ],
  );
  assert.deepEqual(
    outOfScope.map((x) => x.tool_rule),
    ["G104", "G402"],
  );
});

test("every policy the claims table names is a built-in policy", () => {
  const ids = new Set(resolveBuiltins(FULL_BUILTIN_SETTINGS).map((p) => p.id));
  for (const [tool, rules] of Object.entries(CLAIMS)) {
    for (const [rule, claim] of Object.entries(rules))
      assert.ok(ids.has(claim.policy), `${tool} ${rule} -> ${claim.policy}`);
  }
});

test("validElsewhere sets aside only listed families that gitleaks reports under another rule", () => {
  const fp = (family, rule_id) => ({ kind: "fp", family, rule_id, text: "x" });
  assert.equal(
    validElsewhere(fp("cloudflare", "cloudflare-api-key"), ["cloudflare-global-api-key"]).family,
    "cloudflare",
  );
  assert.deepEqual(validElsewhere(fp("curl", "curl-auth-header"), ["curl-auth-header", "jwt"]).rules, ["jwt"]);
  // gitleaks' own rule or its catch-all reporting it: still a false positive.
  assert.equal(
    validElsewhere(fp("cloudflare", "cloudflare-api-key"), ["cloudflare-api-key", "generic-api-key"]),
    undefined,
  );
  // A family nobody reviewed: counted, whatever gitleaks says.
  assert.equal(validElsewhere(fp("meraki", "cisco-meraki-api-key"), ["jwt"]), undefined);
  // True positives are never set aside.
  assert.equal(
    validElsewhere({ ...fp("cloudflare", "cloudflare-api-key"), kind: "tp" }, ["cloudflare-global-api-key"]),
    undefined,
  );
});
