// What a policy is, independent of storage: the effective view an organization sees (a built-in
// definition with the organization's override applied, or one of its custom policies), and what
// the evaluation engine receives for it.
import { createHash } from "node:crypto";
import type { policyV1 } from "@verdict/proto";
import { languagePaths, type Language } from "./languages.js";

export const SEVERITIES = ["error", "warning"] as const;
export type Severity = (typeof SEVERITIES)[number];

export function isSeverity(value: string): value is Severity {
  return (SEVERITIES as readonly string[]).includes(value);
}

/** Findings of policies in this category carry secrets, so the engine masks what it matched. */
export const SECRETS_CATEGORY = "secrets";
export const DEFAULT_CUSTOM_CATEGORY = "custom";

export interface PatternDef {
  /**
   * "regex" (RE2 syntax), or "structural" (built-in rules only): a syntax-aware rule, as JSON
   * (the languages it runs on and an ast-grep rule; services/evaluation/src/domain/structural.ts).
   */
  type: "regex" | "structural";
  value: string;
  message: string;
  /** Capture group holding the secret (0 or absent: the whole match). Used when redacting. */
  redact_group?: number;
  /** Stable id of the rule within its policy, kebab-case (every built-in rule has one). */
  id?: string;
  /**
   * Lower-case words; the rule only runs on files containing one of them (case-insensitive).
   * A cheap gate that keeps generic rules quiet where their subject is not even mentioned.
   */
  keywords?: string[];
  /** Minimum Shannon entropy (bits per character) of the secret, for generic secret rules. */
  min_entropy?: number;
  /** RE2 patterns on the file path: the rule only runs where one matches (Dockerfile, *.py…). */
  paths?: string[];
  /** RE2 patterns: a match whose secret (or whole match) matches one is not reported. */
  allowlist?: string[];
  /** A catch-all rule: its finding yields to a specific rule's finding of the same secret. */
  generic?: boolean;
  /** RE2 patterns: a match whose whole matched text matches one is not reported. */
  match_allowlist?: string[];
  /** RE2 patterns: a match on a line that matches one is not reported. */
  line_allowlist?: string[];
  /** RE2 patterns on the whole file: the rule only reports where at least one matches. */
  file_requires?: string[];
  /** RE2 patterns on the whole file: the rule reports nothing where one matches. */
  file_excludes?: string[];
  /** Lower-case words: a secret containing one is not reported (`example`, `sample`…). */
  stopwords?: string[];
  /**
   * Structural checks of the evaluation engine (services/evaluation/src/domain/checks.ts) that
   * must all accept a match: a token's checksum, a JWT's header. Built-in rules only.
   */
  checks?: string[];
  /**
   * Provider context: a match is a finding only where one of these keywords names it, standing
   * before the secret and joined to it by a name, blanks, quotes and separators alone, whatever
   * the syntax. Distance (bytes), separators and line breaks are data; the engine has defaults.
   */
  context?: { keywords: string[]; distance?: number; separators?: string; lines?: number };
}

export interface Suggestion {
  text: string;
}

/** What describes a policy, whether built in, custom, or the effective view of either. */
export interface PolicyDescription {
  id: string;
  name: string;
  description: string;
  severity: Severity;
  enabled: boolean;
  category: string;
  /** `<framework>:<control>`: nist-ssdf (SP 800-218 v1.1), soc2, owasp-asvs (4.0.3), cwe. */
  frameworks: string[];
  documentation_url: string;
}

export interface EffectivePolicy extends PolicyDescription {
  /** The patterns that run under the current settings. */
  patterns: PatternDef[];
  suggestions: Suggestion[];
  /** Defaults merged with the organization's overrides. */
  settings: Record<string, unknown>;
  builtin: boolean;
  /** A built-in's claimed languages and file formats (BuiltinPolicy.claims); absent: any text file. */
  languages?: readonly Language[];
  /** Absent for built-ins, which are defined in code rather than created. */
  created_at?: string;
  /** Last change by the organization (override or custom policy); absent when never changed. */
  updated_at?: string;
}

/**
 * A pattern ready to run: the contract's message (verdict.policy.v1.ResolvedPattern), so the
 * engine, the gRPC answer and this service read one type.
 */
export type ResolvedPattern = policyV1.ResolvedPattern;

/** A policy ready to run: only what the evaluation engine needs (verdict.policy.v1.ResolvedPolicy). */
export interface ResolvedPolicy extends policyV1.ResolvedPolicy {
  severity: Severity;
}

export function toResolved(policy: EffectivePolicy): ResolvedPolicy {
  const redact = policy.category === SECRETS_CATEGORY;
  // A policy-wide min_entropy setting (generic secret policies) overrides the rules' own.
  const minEntropy = typeof policy.settings.min_entropy === "number" ? policy.settings.min_entropy : undefined;
  const excludes = policy.settings.exclude_paths;
  return {
    id: policy.id,
    severity: policy.severity,
    category: policy.category,
    suggestion: policy.suggestions[0]?.text ?? "",
    patterns: policy.patterns.map((p, i) => ({
      type: p.type,
      value: p.value,
      message: p.message,
      redact,
      redact_group: p.redact_group ?? 0,
      rule_id: p.id ?? (policy.patterns.length === 1 ? policy.id : `${policy.id}-${i + 1}`),
      keywords: p.keywords ?? [],
      min_entropy: p.min_entropy !== undefined && minEntropy !== undefined ? minEntropy : (p.min_entropy ?? 0),
      paths: p.paths ?? [],
      allowlist: p.allowlist ?? [],
      generic: p.generic ?? false,
      match_allowlist: p.match_allowlist ?? [],
      line_allowlist: p.line_allowlist ?? [],
      file_requires: p.file_requires ?? [],
      file_excludes: p.file_excludes ?? [],
      stopwords: p.stopwords ?? [],
      checks: p.checks ?? [],
      ...(p.context
        ? {
            context: {
              keywords: p.context.keywords,
              distance: p.context.distance ?? 0,
              separators: p.context.separators ?? "",
              lines: p.context.lines ?? 0,
            },
          }
        : {}),
    })),
    exclude_paths: Array.isArray(excludes) ? excludes.filter((x): x is string => typeof x === "string") : [],
    file_scope: languagePaths(policy.languages ?? []),
  };
}

/**
 * The version of a resolved policy set: a digest of everything the engine receives, so it changes
 * whenever anything in the set does (the evaluation service's cache key for compiled engines, and
 * what `verdict evaluate --offline` reports it ran).
 */
export function policyVersion(policies: readonly ResolvedPolicy[]): string {
  return createHash("sha256").update(JSON.stringify(policies)).digest("base64url").slice(0, 22);
}

/** Built-ins first (they are the same for everyone), then custom policies, each by id. */
export function comparePolicies(a: EffectivePolicy, b: EffectivePolicy): number {
  if (a.builtin !== b.builtin) return a.builtin ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
