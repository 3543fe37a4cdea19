// An organization's syntax-aware pattern (`type: "structural"`): a language and an ast-grep rule
// (https://ast-grep.github.io/reference/rule.html) with optional metavariable constraints, stored
// as the JSON the evaluation engine runs (services/evaluation/src/domain/structural.ts), as
// built-in structural rules are. Written by an organization, so the rule is read as data: only
// the rule keys listed here are taken (ast-grep's `fix`, `transform`, `rewriters`, `utils` and
// `matches` are not, so nothing in a rule rewrites code or calls another rule), it nests at most
// MAX_RULE_DEPTH levels and is at most MAX_RULE_BYTES as JSON. Whether ast-grep accepts the rule,
// whether it singles out anything, and what it costs are measured on a pattern-check worker
// (structuralBudget.ts).
import type { FieldError } from "@verdict/kit";
import { STRUCTURAL_LANGUAGES } from "@verdict/structural";

/** The languages a custom structural rule may be written for (the engine's parsers). */
export const CUSTOM_STRUCTURAL_LANGUAGES = STRUCTURAL_LANGUAGES;
export type CustomStructuralLanguage = (typeof CUSTOM_STRUCTURAL_LANGUAGES)[number];

export const MAX_RULE_BYTES = 8192;
export const MAX_RULE_DEPTH = 12;
const MAX_LIST = 20;
const MAX_STRING = 2048;
export const MAX_SAMPLES = 10;

/** A structural pattern as a request gives it (the fields a regex pattern leaves empty). */
export interface StructuralFields {
  language?: string;
  rule?: Record<string, unknown> | undefined;
  constraints?: Record<string, unknown> | undefined;
  ruleid?: string[];
  ok?: string[];
}

const STRICTNESS = ["cst", "smart", "ast", "relaxed", "signature"];
const KIND_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;
const METAVARIABLE_RE = /^[A-Z_][A-Z0-9_]*$/;
const NTH_FORMULA_RE = /^[0-9n+\- ]{1,32}$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function problem(field: string, message: string): FieldError {
  return { field, code: "INVALID_FORMAT", message };
}

function checkString(v: unknown, field: string, out: FieldError[]): v is string {
  if (typeof v !== "string" || !v.length) {
    out.push(problem(field, `${field} must be a non-empty string`));
    return false;
  }
  if (v.length > MAX_STRING) {
    out.push({
      field,
      code: "MAX_SIZE_EXCEEDED",
      message: `${field} is longer than ${MAX_STRING} characters`,
      max: MAX_STRING,
    });
    return false;
  }
  return true;
}

function checkPatternKey(v: unknown, field: string, out: FieldError[]): void {
  if (typeof v === "string") {
    checkString(v, field, out);
    return;
  }
  if (!isObject(v)) {
    out.push(problem(field, `${field} must be a string or an object with context, selector, strictness`));
    return;
  }
  for (const [key, value] of Object.entries(v)) {
    const at = `${field}.${key}`;
    if (key === "context" || key === "selector") checkString(value, at, out);
    else if (key === "strictness") {
      if (typeof value !== "string" || !STRICTNESS.includes(value))
        out.push(problem(at, `${at} must be one of: ${STRICTNESS.join(", ")}`));
    } else out.push(problem(at, `${at} is not a key a pattern object takes (context, selector, strictness)`));
  }
  if (!("context" in v)) out.push(problem(field, `${field} needs a context`));
}

function checkNthChild(v: unknown, field: string, out: FieldError[], depth: number): void {
  const position = (p: unknown, at: string) => {
    const ok =
      (typeof p === "number" && Number.isInteger(p) && p >= 1) || (typeof p === "string" && NTH_FORMULA_RE.test(p));
    if (!ok) out.push(problem(at, `${at} must be a positive integer or an An+B formula`));
  };
  if (!isObject(v)) {
    position(v, field);
    return;
  }
  for (const [key, value] of Object.entries(v)) {
    const at = `${field}.${key}`;
    if (key === "position") position(value, at);
    else if (key === "reverse") {
      if (typeof value !== "boolean") out.push(problem(at, `${at} must be true or false`));
    } else if (key === "ofRule") checkRule(value, at, out, depth + 1);
    else out.push(problem(at, `${at} is not a key nthChild takes (position, reverse, ofRule)`));
  }
}

function checkRange(v: unknown, field: string, out: FieldError[]): void {
  const point = (p: unknown, at: string) => {
    if (
      !isObject(p) ||
      Object.keys(p).some((k) => k !== "line" && k !== "column") ||
      !["line", "column"].every((k) => Number.isInteger(p[k]) && (p[k] as number) >= 0)
    )
      out.push(problem(at, `${at} must be {line, column}, 0-based integers`));
  };
  if (!isObject(v) || Object.keys(v).some((k) => k !== "start" && k !== "end")) {
    out.push(problem(field, `${field} must be {start, end}`));
    return;
  }
  point(v.start, `${field}.start`);
  point(v.end, `${field}.end`);
}

/** Checks one rule object (and what it nests), pushing each problem with its exact field. */
function checkRule(rule: unknown, field: string, out: FieldError[], depth: number, relational = false): void {
  if (depth > MAX_RULE_DEPTH) {
    out.push({
      field,
      code: "MAX_SIZE_EXCEEDED",
      message: `${field} nests deeper than ${MAX_RULE_DEPTH} levels`,
      max: MAX_RULE_DEPTH,
    });
    return;
  }
  if (!isObject(rule) || Object.keys(rule).length === 0) {
    out.push(problem(field, `${field} must be a non-empty rule object`));
    return;
  }
  for (const [key, value] of Object.entries(rule)) {
    const at = `${field}.${key}`;
    switch (key) {
      case "pattern":
        checkPatternKey(value, at, out);
        break;
      case "kind":
        if (checkString(value, at, out) && !KIND_RE.test(value))
          out.push(problem(at, `${at} must be a node kind name`));
        break;
      case "regex":
        checkString(value, at, out);
        break;
      case "nthChild":
        checkNthChild(value, at, out, depth);
        break;
      case "range":
        checkRange(value, at, out);
        break;
      case "inside":
      case "has":
      case "precedes":
      case "follows":
        checkRule(value, at, out, depth + 1, true);
        break;
      case "all":
      case "any":
        if (!Array.isArray(value) || value.length === 0 || value.length > MAX_LIST)
          out.push(problem(at, `${at} must be a list of 1-${MAX_LIST} rules`));
        else value.forEach((r, i) => checkRule(r, `${at}[${i}]`, out, depth + 1));
        break;
      case "not":
        checkRule(value, at, out, depth + 1);
        break;
      case "stopBy":
        if (!relational) out.push(problem(at, `${at}: stopBy belongs in inside, has, precedes or follows`));
        else if (value !== "neighbor" && value !== "end") checkRule(value, at, out, depth + 1);
        break;
      case "field":
        if (!relational) out.push(problem(at, `${at}: field belongs in inside or has`));
        else if (checkString(value, at, out) && !KIND_RE.test(value))
          out.push(problem(at, `${at} must be a field name`));
        break;
      default:
        out.push(
          problem(
            at,
            `${at} is not a rule key Verdict takes (pattern, kind, regex, nthChild, range, inside, has, precedes, follows, all, any, not; stopBy and field in relational rules)`,
          ),
        );
    }
  }
  if (relational && !Object.keys(rule).some((k) => k !== "stopBy" && k !== "field"))
    out.push(problem(field, `${field} needs a rule beside stopBy and field`));
}

/**
 * What a pattern's type needs (a regex pattern its value; a structural one its language and rule)
 * and what it does not take: HTTP 422, since the schema (one Pattern shape for both types) takes
 * every field with either type.
 */
export function checkPatternFields(
  p: { type: string; value?: string } & StructuralFields,
  field: string,
): FieldError[] {
  const out: FieldError[] = [];
  const given = (k: keyof StructuralFields) =>
    Array.isArray(p[k]) ? (p[k] as unknown[]).length > 0 : p[k] !== undefined && p[k] !== "";
  if (p.type === "structural") {
    if (p.value) out.push(problem(`${field}.value`, "a structural pattern has no value: give its language and rule"));
    if (!p.language)
      out.push({ field: `${field}.language`, code: "REQUIRED", message: "a structural pattern needs a language" });
    if (!p.rule) out.push({ field: `${field}.rule`, code: "REQUIRED", message: "a structural pattern needs a rule" });
  } else if (p.type === "regex") {
    if (!p.value) out.push({ field: `${field}.value`, code: "REQUIRED", message: "pattern value is required" });
    for (const k of ["language", "rule", "constraints", "ruleid", "ok"] as const)
      if (given(k))
        out.push(problem(`${field}.${k}`, `${k} belongs to structural patterns; a regex pattern has only a value`));
  }
  return out;
}

/** Rule problems (HTTP 422): the language, the keys, the size. Run after checkPatternFields. */
export function structuralProblems(p: StructuralFields, field: string): FieldError[] {
  const out: FieldError[] = [];
  if (!(CUSTOM_STRUCTURAL_LANGUAGES as readonly string[]).includes(p.language ?? ""))
    out.push({
      field: `${field}.language`,
      code: "INVALID_ENUM",
      message: `language must be one of: ${CUSTOM_STRUCTURAL_LANGUAGES.join(", ")}`,
    });
  // The keys first: their check stops at MAX_RULE_DEPTH, so a rule nested deeper than any stack
  // is refused before anything (JSON.stringify) walks it whole.
  const keys: FieldError[] = [];
  checkRule(p.rule, `${field}.rule`, keys, 1);
  if (p.constraints !== undefined) {
    if (!isObject(p.constraints)) keys.push(problem(`${field}.constraints`, "constraints must be an object"));
    else
      for (const [name, rule] of Object.entries(p.constraints)) {
        const at = `${field}.constraints.${name}`;
        if (!METAVARIABLE_RE.test(name))
          keys.push(problem(at, `${at}: a constraint is named by its metavariable (ARG for $ARG)`));
        else checkRule(rule, at, keys, 2);
      }
  }
  if (keys.some((k) => k.code === "MAX_SIZE_EXCEEDED")) return [...out, ...keys];
  const size = Buffer.byteLength(JSON.stringify({ rule: p.rule, constraints: p.constraints ?? {} }), "utf8");
  if (size > MAX_RULE_BYTES) {
    out.push({
      field: `${field}.rule`,
      code: "MAX_SIZE_EXCEEDED",
      message: `the rule and its constraints are ${size} bytes as JSON (limit ${MAX_RULE_BYTES})`,
      max: MAX_RULE_BYTES,
    });
    return out;
  }
  return [...out, ...keys];
}

/** The stored value of a checked structural pattern: the JSON the engine reads. */
export function structuralValue(p: StructuralFields): string {
  const constraints = p.constraints && Object.keys(p.constraints).length ? { constraints: p.constraints } : {};
  return JSON.stringify({ languages: [p.language], rule: p.rule, ...constraints });
}
