import { describe, expect, it } from "@jest/globals";
import { jsonFields, messageFields } from "./messages.js";
import { requiredEnumProblem } from "./fieldChecks.js";

const record = {
  id: "wh_1",
  status: "active",
  disabled_at: null as string | null,
  attempts: 0,
  passed: false,
  secret_sealed: "sealed-secret",
};

describe("messageFields", () => {
  it("copies only the named fields, a stored null as absent and other falsy values as they are", () => {
    const message = messageFields(record, ["id", "status", "disabled_at", "attempts", "passed"]);
    expect(message).toStrictEqual({ id: "wh_1", status: "active", disabled_at: undefined, attempts: 0, passed: false });
    expect(message).not.toHaveProperty("secret_sealed");
    expect(messageFields({ ...record, disabled_at: "2026-01-01T00:00:00Z" }, ["disabled_at"])).toEqual({
      disabled_at: "2026-01-01T00:00:00Z",
    });
  });
});

describe("jsonFields", () => {
  it("copies only the named fields, an absent one as null", () => {
    const message = { id: "key_1", expires_at: undefined as string | undefined, scopes: [], operator: false };
    expect(jsonFields(message, ["id", "expires_at", "scopes"])).toStrictEqual({
      id: "key_1",
      expires_at: null,
      scopes: [],
    });
  });
});

describe("requiredEnumProblem", () => {
  it("answers REQUIRED when empty, INVALID_ENUM naming the choices for another value, nothing for a choice", () => {
    const allowed = ["github", "gitea"] as const;
    expect(requiredEnumProblem("provider", "", allowed)).toEqual({
      field: "provider",
      code: "REQUIRED",
      message: "provider is required",
    });
    expect(requiredEnumProblem("provider", "svn", allowed)).toEqual({
      field: "provider",
      code: "INVALID_ENUM",
      message: "provider must be one of: github, gitea",
    });
    expect(requiredEnumProblem("provider", "gitea", allowed)).toBeUndefined();
  });
});
