// The engine's contract with its callers (the policies it runs, what a scan returns) and the
// shapes its modules share.
import type { evaluationV1 } from "@verdict/proto";
import type { ByteLine } from "./bytes.js";
import type { SkipReason } from "./fileKinds.js";
import type { ProviderContext } from "./providerContext.js";
import type { Range } from "./redaction.js";

export interface PatternToRun {
  /** "regex" (RE2; also when absent or empty) or "structural" (structural.ts: JSON of a StructuralSpec). */
  type?: string;
  value: string;
  message: string;
  /** Mask the secret in the snippet (the whole match, or capture group redact_group). */
  redact: boolean;
  redact_group: number;
  rule_id: string;
  keywords: string[];
  min_entropy: number;
  paths: string[];
  allowlist: string[];
  /** A catch-all rule: yields to a specific rule that found the same secret. */
  generic: boolean;
  /** RE2 patterns: a match whose whole text matches one is not a finding. */
  match_allowlist?: string[];
  /** RE2 patterns: a match on a line matching one is not a finding (the line within 1 KiB of it). */
  line_allowlist?: string[];
  /** RE2 patterns on the file: the rule only reports where at least one matches. */
  file_requires?: string[];
  /** RE2 patterns on the file: the rule reports nothing where one matches. */
  file_excludes?: string[];
  /** Lower-case words: a secret containing one is not a finding. */
  stopwords?: string[];
  /** Names of structural checks (checks.ts) every match must pass. */
  checks?: string[];
  /** Provider context: a match counts only where one of these keywords names it (nearProvider()). */
  context?: ProviderContext | undefined;
}

export interface PolicyToRun {
  id: string;
  severity: string;
  category: string;
  suggestion: string;
  patterns: PatternToRun[];
  exclude_paths: string[];
}

/**
 * A violation before it has an id. Its fields are the contract's (verdict.evaluation.v1.Violation):
 * a field added there is filled here, where findings are made, and reaches the store, the gRPC
 * answer, the REST answer, the OpenAPI document and the webhooks without another edit.
 */
export type Finding = Omit<evaluationV1.Violation, "id">;

export interface SuppressedFinding {
  policy_id: string;
  rule_id: string;
  file: string;
  line: number;
  reason: string;
  /** The finding's fingerprint (fingerprint.ts), as it would have been reported. */
  fingerprint: string;
}

export interface FileScan {
  /** Set when the file was not scanned at all. */
  skipped?: SkipReason;
  /** The first findings in reading order, at most the limit asked for. */
  findings: Finding[];
  suppressions: SuppressedFinding[];
  /** Every reported finding in the file, including those past the limit. */
  matched: number;
  /** Every reported finding by severity, including those past the limit. */
  bySeverity: Record<string, number>;
}

export interface ScanOptions {
  /** Whether `verdict-ignore` comments silence findings (an organization setting). */
  allowSuppression: boolean;
  /** How many findings to describe; all are counted. */
  limit?: number;
}

export interface Engine {
  readonly ruleCount: number;
  scan(path: string, content: Buffer, options: ScanOptions): FileScan;
}

/** What a finding reports: the rule's policy and pattern, and the rule's place in the library. */
export interface Reporting {
  policy: PolicyToRun;
  pattern: PatternToRun;
  /** Position in the library: of two generic rules of equally severe policies on one secret, the earlier one reports it. */
  order: number;
}

/** A policy's compiled settings. */
export interface CompiledPolicy {
  excluded: (path: string) => boolean;
}

/** A finding before its gates, suppression and snippet: where a rule matched. */
export interface Hit {
  rule: Reporting;
  start: number;
  end: number;
  secret?: Range;
  line: ByteLine;
}
