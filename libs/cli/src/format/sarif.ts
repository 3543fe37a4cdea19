// An evaluation as SARIF 2.1.0 for GitHub code scanning (github/codeql-action/upload-sarif):
// one rule per policy (with help text and a help link), one result per violation with its
// location, the redacted snippet and a partial fingerprint that survives line shifts, so alerts
// are tracked across pushes rather than reopened.
import type { Evaluation, Policy } from "@verdict/sdk";
import type { Printable } from "./text.js";
import type { Log, ReportingDescriptor, Result } from "sarif";

type Violation = Evaluation["violations"][number];

const SECURITY_SEVERITY: Record<string, string> = { error: "8.0", warning: "5.0" };

function rule(policyId: string, policy: Policy | undefined, sample: Violation): ReportingDescriptor {
  const level: "error" | "warning" = (policy?.severity ?? sample.severity) === "error" ? "error" : "warning";
  const description = policy?.description || sample.message;
  const suggestions = policy?.suggestions.map((s) => s.text) ?? [sample.suggestion];
  const helpText = [description, ...suggestions].filter(Boolean).join("\n\n");
  const helpMarkdown = [
    `**${policy?.name ?? policyId}**`,
    description,
    ...suggestions.map((s) => `- ${s}`),
    policy?.frameworks.length ? `Controls: ${policy.frameworks.map((f) => `\`${f}\``).join(", ")}` : "",
    policy?.documentation_url ? `[Documentation](${policy.documentation_url})` : "",
  ]
    .filter(Boolean)
    .join("\n\n");
  const tags = [
    "verdict",
    ...(policy ? [policy.category] : []),
    ...(policy?.category === "secrets" || policy?.category === "security" ? ["security"] : []),
  ];
  return {
    id: policyId,
    name: policy?.name ?? policyId,
    shortDescription: { text: policy?.name ?? sample.message },
    fullDescription: { text: description },
    help: { text: helpText, markdown: helpMarkdown },
    ...(policy?.documentation_url ? { helpUri: policy.documentation_url } : {}),
    defaultConfiguration: { level },
    properties: {
      tags: [...new Set(tags)],
      precision: "high",
      "security-severity": SECURITY_SEVERITY[level],
      ...(policy ? { frameworks: policy.frameworks } : {}),
    },
  };
}

export function toSarif(
  e: Printable | null,
  policies: Map<string, Policy | undefined>,
  tool: { version: string; informationUri: string },
): Log {
  const violations = e?.violations ?? [];
  const ruleIds = [...new Set(violations.map((v) => v.policy_id))].sort();
  const index = new Map(ruleIds.map((id, i) => [id, i]));
  const seen = new Map<string, number>();
  const results = violations.map((v): Result => {
    // The engine's fingerprint (stable across pushes); a repeat of the same value in the same file
    // gets its occurrence number, so each result has its own.
    const n = (seen.get(v.fingerprint) ?? 0) + 1;
    seen.set(v.fingerprint, n);
    return {
      ruleId: v.policy_id,
      ruleIndex: index.get(v.policy_id)!,
      level: v.severity === "error" ? "error" : "warning",
      message: { text: v.suggestion ? `${v.message}. ${v.suggestion}` : v.message },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: encodeURI(v.file), uriBaseId: "%SRCROOT%" },
            region: { startLine: v.line, startColumn: v.column, snippet: { text: v.code_snippet } },
          },
        },
      ],
      partialFingerprints: { "verdictFingerprint/v1": n === 1 ? v.fingerprint : `${v.fingerprint}:${n}` },
      properties: {
        "verdict-rule": v.rule_id,
        "verdict-violation": v.id,
        // Live verification (organizations that turned it on): what the provider said, and when.
        ...(v.verification ? { "verdict-verification": v.verification } : {}),
        ...(v.verification_checked_at ? { "verdict-verification-checked-at": v.verification_checked_at } : {}),
      },
    };
  });
  return {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "Verdict",
            semanticVersion: tool.version,
            informationUri: tool.informationUri,
            rules: ruleIds.map((id) =>
              rule(
                id,
                policies.get(id),
                violations.find((v) => v.policy_id === id)!,
              ),
            ),
          },
        },
        // Verdict counts columns in Unicode code points.
        columnKind: "unicodeCodePoints",
        ...(e ? { automationDetails: { id: `verdict/${e.repository}/` } } : {}),
        // One run for the whole change, however many evaluations it was sent as.
        properties: {
          evaluation: e?.id ?? null,
          evaluations: e ? (e.evaluations ?? [e.id]) : [],
          passed: e?.passed ?? true,
        },
        results,
      },
    ],
  };
}
