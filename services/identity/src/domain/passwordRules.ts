// What a new password must be, wherever one is chosen (invitation, change, reset).
import type { FieldError } from "@verdict/kit";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../passwords.js";

/** Field errors for a new password given in `field` (empty when it is acceptable). */
export function passwordProblems(password: string, field: string): FieldError[] {
  if (password.length < MIN_PASSWORD_LENGTH)
    return [
      {
        field,
        code: "MIN_SIZE_REQUIRED",
        message: `${field} must be at least ${MIN_PASSWORD_LENGTH} characters`,
        min: MIN_PASSWORD_LENGTH,
      },
    ];
  if (password.length > MAX_PASSWORD_LENGTH)
    return [
      {
        field,
        code: "MAX_SIZE_EXCEEDED",
        message: `${field} must be at most ${MAX_PASSWORD_LENGTH} characters`,
        max: MAX_PASSWORD_LENGTH,
      },
    ];
  return [];
}
