// The engine's contract with its callers (the policies it runs, what a scan returns) and the
// shapes its modules share.
import type { evaluationV1, policyV1 } from "@verdict/proto";
import type { ByteLine } from "./bytes.js";
import type { SkipReason } from "./fileKinds.js";
import type { Range } from "./redaction.js";

/** The rule fields a caller (a test, an offline run) may leave out: the engine reads them as empty. */
type OptionalRuleFields =
  | "type"
  | "match_allowlist"
  | "line_allowlist"
  | "file_requires"
  | "file_excludes"
  | "stopwords"
  | "checks"
  | "context";

/**
 * A pattern the engine runs: the contract's message (verdict.policy.v1.ResolvedPattern, whose
 * comments say what each field means), with the fields a caller may leave out optional.
 */
export type PatternToRun = Omit<policyV1.ResolvedPattern, OptionalRuleFields> &
  Partial<Pick<policyV1.ResolvedPattern, OptionalRuleFields>>;

/**
 * A policy the engine runs: the contract's verdict.policy.v1.ResolvedPolicy, with its patterns as
 * above. `file_scope` is compliance's (which files the policy could apply to), not the engine's.
 */
export type PolicyToRun = Omit<policyV1.ResolvedPolicy, "patterns" | "file_scope"> & {
  patterns: PatternToRun[];
  file_scope?: string[];
};

/**
 * A violation before it has an id. Its fields are the contract's (verdict.evaluation.v1.Violation):
 * a field added there is filled here, where findings are made, and reaches the store, the gRPC
 * answer, the REST answer, the OpenAPI document and the webhooks without another edit.
 */
export type Finding = Omit<evaluationV1.Violation, "id">;

/** A finding silenced inline, with the reason given: the contract's verdict.evaluation.v1.Suppression. */
export type SuppressedFinding = evaluationV1.Suppression;

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
  /** What the structural matcher has cost this engine so far, by language (files parsed, bytes, CPU seconds). */
  structuralCost(): ReadonlyMap<string, { files: number; bytes: number; parseSeconds: number; matchSeconds: number }>;
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
