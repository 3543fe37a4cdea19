// Maps zod issues to the spec's field errors: `files[0].content`, REQUIRED, INVALID_FORMAT,
// MAX_SIZE_EXCEEDED (+max), MIN_SIZE_REQUIRED (+min), INVALID_ENUM.
import type { z } from "zod";
import { errors, type AppError, type FieldError, type FieldErrorCode } from "@verdict/kit";

export function fieldPath(path: PropertyKey[], prefix?: string): string {
  let out = prefix ?? "";
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`;
    else out += out ? `.${String(seg)}` : String(seg);
  }
  return out;
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let cur = input;
  for (const seg of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[seg];
  }
  return cur;
}

export function toFieldErrors(issues: z.core.$ZodIssue[], input: unknown, prefix?: string): FieldError[] {
  const out: FieldError[] = [];
  for (const issue of issues) {
    const field = fieldPath(issue.path, prefix) || prefix || "body";
    switch (issue.code) {
      case "invalid_type":
        if (valueAt(input, issue.path) === undefined)
          out.push({ field, code: "REQUIRED", message: `${field} is required` });
        else out.push({ field, code: "INVALID_FORMAT", message: `${field} must be ${article(issue.expected)}` });
        break;
      case "too_big":
        out.push({
          field,
          code: "MAX_SIZE_EXCEEDED",
          message: sizeMessage(field, issue.origin, "at most", issue.maximum),
          max: Number(issue.maximum),
        });
        break;
      case "too_small":
        out.push({
          field,
          code: "MIN_SIZE_REQUIRED",
          message: sizeMessage(field, issue.origin, "at least", issue.minimum),
          min: Number(issue.minimum),
        });
        break;
      case "invalid_value":
        out.push({
          field,
          code: "INVALID_ENUM",
          message: `${field} must be one of: ${issue.values.map(String).join(", ")}`,
        });
        break;
      case "unrecognized_keys":
        for (const key of issue.keys) {
          const f = fieldPath([...issue.path, key], prefix);
          out.push({ field: f, code: "INVALID_FORMAT", message: `${f} is not a known field` });
        }
        break;
      case "custom": {
        const params = (issue.params ?? {}) as { code?: FieldErrorCode; max?: number };
        out.push({
          field,
          code: params.code ?? "INVALID_FORMAT",
          message: issue.message,
          ...(params.max !== undefined ? { max: params.max } : {}),
        });
        break;
      }
      default:
        // A missing value that a union (or another composite check) needed is simply required.
        if (valueAt(input, issue.path) === undefined)
          out.push({ field, code: "REQUIRED", message: `${field} is required` });
        else out.push({ field, code: "INVALID_FORMAT", message: `${field}: ${issue.message}` });
    }
  }
  return out;
}

function article(expected: string): string {
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

function sizeMessage(field: string, origin: string, bound: string, n: unknown): string {
  const unit = origin === "string" ? " characters" : origin === "array" ? " items" : "";
  return `${field} must be ${bound} ${String(n)}${unit}`;
}

/** Parses with a zod schema or throws the spec's 400 validation error. */
export function parseOr400<S extends z.ZodType>(schema: S, input: unknown, prefix?: string): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw validationError(toFieldErrors(result.error.issues, input, prefix));
}

function validationError(fieldErrors: FieldError[]): AppError {
  return errors.validation(fieldErrors);
}
