import { describe, expect, it } from "@jest/globals";
import { VerdictApiError } from "@verdict/sdk";
import { describeError, redactKeys } from "./errors.js";

describe("error lines", () => {
  it("names the status, code and request id, and the fields of a validation error", () => {
    const err = new VerdictApiError(
      422,
      "validation_error",
      "VALIDATION_FAILED",
      "Request validation failed",
      "req_1",
      { errors: [{ field: "patterns[0].value", message: "invalid RE2" }] },
    );
    expect(describeError(err)).toBe(
      "Request validation failed: patterns[0].value: invalid RE2 [VALIDATION_FAILED] (request req_1)",
    );
    const coded = new VerdictApiError(
      422,
      "validation_error",
      "VALIDATION_FAILED",
      "Request validation failed",
      "req_2",
      {
        errors: [{ field: "redirect_uris[0]", code: "INVALID_FORMAT", message: "must be https" }],
      },
    );
    expect(describeError(coded)).toBe(
      "Request validation failed: redirect_uris[0]: must be https (INVALID_FORMAT) [VALIDATION_FAILED] (request req_2)",
    );
    expect(
      describeError(new VerdictApiError(401, "unauthorized", "AUTH_INVALID_KEY", "Invalid key", undefined, undefined)),
    ).toBe("authentication failed: Invalid key [AUTH_INVALID_KEY]");
  });

  it("never shows an API key", () => {
    expect(redactKeys("key vdt_key_prod_abcDEF1234567890abcdef1234567890XYZ123 rejected")).toBe(
      "key vdt_key_prod_**** rejected",
    );
    expect(redactKeys("token vdt_scim_AbCd1234efGH5678 and secret vdt_ocs_Zz9-x_y were refused")).toBe(
      "token vdt_scim_**** and secret vdt_ocs_**** were refused",
    );
  });
});
