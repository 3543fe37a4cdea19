// Custom policies: written by an organization, so everything about them is checked. Shape
// problems (bad id, missing fields) are schema errors (400); patterns that RE2 cannot run are
// domain errors (422), reported with RE2's own reason.
import type { FieldError } from "@verdict/kit";
import { patternProblem, PATTERN_TYPES } from "./pattern.js";
import { checkPatternFields, structuralProblems, structuralValue, type StructuralFields } from "./structuralPattern.js";
import {
  DEFAULT_CUSTOM_CATEGORY,
  isSeverity,
  SEVERITIES,
  type PatternDef,
  type PolicyDescription,
  type Severity,
  type Suggestion,
} from "./policy.js";

export const POLICY_ID_RE = /^[a-z0-9][a-z0-9-]{1,62}[a-z0-9]$/;
/** `<framework_id>:<control_id>`, e.g. `owasp-asvs:V2.10.4`, `soc2:CC6.1`, `nist-800-53:IA-5(7)`. */
const FRAMEWORK_REF_RE = /^[a-z0-9-]+:[A-Za-z0-9._()-]+$/;

// Bounds (the same as the REST schema's) keep one policy from dominating evaluation time and
// RE2 program memory.
export const MAX_PATTERNS = 100;
export const MAX_PATTERN_LENGTH = 4096;
export const MAX_NAME_LENGTH = 200;
export const MAX_CATEGORY_LENGTH = 64;

export interface CustomPolicyInput {
  id: string;
  name: string;
  description: string;
  severity: string;
  category: string;
  frameworks: string[];
  patterns: ({ type: string; value: string; message: string } & StructuralFields)[];
  suggestions: Suggestion[];
  documentation_url: string;
  enabled?: boolean;
}

export interface CustomPolicy extends PolicyDescription {
  patterns: PatternDef[];
  suggestions: Suggestion[];
  created_at: string;
  updated_at: string;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

/** Schema-level problems (HTTP 400). */
export function checkCustomPolicyShape(input: CustomPolicyInput): FieldError[] {
  const problems: FieldError[] = [];
  if (!input.id) problems.push({ field: "id", code: "REQUIRED", message: "id is required" });
  else if (!POLICY_ID_RE.test(input.id)) {
    problems.push({
      field: "id",
      code: "INVALID_FORMAT",
      message: "id must be 3-64 lowercase letters, digits or hyphens, starting and ending with a letter or digit",
    });
  }
  if (!input.name.trim()) problems.push({ field: "name", code: "REQUIRED", message: "name is required" });
  else if (input.name.length > MAX_NAME_LENGTH)
    problems.push({
      field: "name",
      code: "MAX_SIZE_EXCEEDED",
      message: `name is longer than ${MAX_NAME_LENGTH} characters`,
      max: MAX_NAME_LENGTH,
    });
  if (!input.severity) problems.push({ field: "severity", code: "REQUIRED", message: "severity is required" });
  else if (!isSeverity(input.severity))
    problems.push({
      field: "severity",
      code: "INVALID_ENUM",
      message: `severity must be one of: ${SEVERITIES.join(", ")}`,
    });
  if (input.category.length > MAX_CATEGORY_LENGTH) {
    problems.push({
      field: "category",
      code: "MAX_SIZE_EXCEEDED",
      message: `category is longer than ${MAX_CATEGORY_LENGTH} characters`,
      max: MAX_CATEGORY_LENGTH,
    });
  }
  input.frameworks.forEach((ref, i) => {
    if (!FRAMEWORK_REF_RE.test(ref)) {
      problems.push({
        field: `frameworks[${i}]`,
        code: "INVALID_FORMAT",
        message: "frameworks entries have the form <framework_id>:<control_id>, e.g. soc2:CC6.1",
      });
    }
  });
  if (input.documentation_url && !isHttpUrl(input.documentation_url)) {
    problems.push({
      field: "documentation_url",
      code: "INVALID_FORMAT",
      message: "documentation_url must be an http or https URL",
    });
  }
  input.suggestions.forEach((s, i) => {
    if (!s.text.trim())
      problems.push({ field: `suggestions[${i}].text`, code: "REQUIRED", message: "suggestion text is required" });
  });
  if (input.patterns.length === 0) {
    problems.push({
      field: "patterns",
      code: "MIN_SIZE_REQUIRED",
      message: "at least one pattern is required",
      min: 1,
    });
  } else if (input.patterns.length > MAX_PATTERNS) {
    problems.push({
      field: "patterns",
      code: "MAX_SIZE_EXCEEDED",
      message: `at most ${MAX_PATTERNS} patterns are allowed`,
      max: MAX_PATTERNS,
    });
  }
  input.patterns.forEach((p, i) => {
    if (!p.type) problems.push({ field: `patterns[${i}].type`, code: "REQUIRED", message: "pattern type is required" });
    if (p.value && p.value.length > MAX_PATTERN_LENGTH) {
      problems.push({
        field: `patterns[${i}].value`,
        code: "MAX_SIZE_EXCEEDED",
        message: `pattern is longer than ${MAX_PATTERN_LENGTH} characters`,
        max: MAX_PATTERN_LENGTH,
      });
    }
  });
  return problems;
}

/**
 * Pattern rules (HTTP 422): a known type, and a value RE2 accepts or a structural rule of the
 * keys taken. Run after the shape check; the pattern-check workers then measure what they cost.
 */
export function checkPatternRules(patterns: CustomPolicyInput["patterns"]): FieldError[] {
  const problems: FieldError[] = [];
  patterns.forEach((p, i) => {
    if (!(PATTERN_TYPES as readonly string[]).includes(p.type)) {
      problems.push({
        field: `patterns[${i}].type`,
        code: "INVALID_ENUM",
        message: `pattern type must be one of: ${PATTERN_TYPES.join(", ")}`,
      });
      return;
    }
    // What the type needs and does not take: the schema allows every field with either type.
    const fields = checkPatternFields(p, `patterns[${i}]`);
    if (fields.length) {
      problems.push(...fields);
      return;
    }
    if (p.type === "structural") {
      problems.push(...structuralProblems(p, `patterns[${i}]`));
      return;
    }
    const problem = patternProblem(p.value);
    if (problem) problems.push({ field: `patterns[${i}].value`, code: "INVALID_FORMAT", message: problem });
  });
  return problems;
}

/** The policy as stored, from input that passed both checks. */
export function buildCustomPolicy(input: CustomPolicyInput, now: string): CustomPolicy {
  return {
    id: input.id,
    name: input.name.trim(),
    description: input.description,
    severity: input.severity as Severity,
    enabled: input.enabled ?? true,
    category: input.category || DEFAULT_CUSTOM_CATEGORY,
    frameworks: [...new Set(input.frameworks)],
    // A pattern without its own message reports the policy's name.
    patterns: input.patterns.map((p) => ({
      type: p.type === "structural" ? "structural" : "regex",
      value: p.type === "structural" ? structuralValue(p) : p.value,
      message: p.message || input.name.trim(),
    })),
    suggestions: input.suggestions.map((s) => ({ text: s.text })),
    documentation_url: input.documentation_url,
    created_at: now,
    updated_at: now,
  };
}
