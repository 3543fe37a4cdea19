// Checks of a request's fields that services share, each giving the spec's field error.
import type { FieldError } from "./errors.js";

/**
 * A required field that takes one of `allowed`: REQUIRED when empty, INVALID_ENUM naming the
 * allowed values when it is another; undefined when it is one of them.
 */
export function requiredEnumProblem(field: string, value: string, allowed: readonly string[]): FieldError | undefined {
  if (!value) return { field, code: "REQUIRED", message: `${field} is required` };
  if (!allowed.includes(value))
    return { field, code: "INVALID_ENUM", message: `${field} must be one of: ${allowed.join(", ")}` };
  return undefined;
}
