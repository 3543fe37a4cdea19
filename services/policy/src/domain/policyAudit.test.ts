import { describe, expect, it } from "@jest/globals";
import { z } from "zod";
import { policyChanges, policyUpdateType } from "./policyAudit.js";
import { settingsAfterPatch } from "./settings.js";

const on = { enabled: true, severity: "error", settings: { detect_api_keys: false, exclude_paths: [] } };

describe("policyChanges", () => {
  it("names each changed field, settings by key, with before and after", () => {
    const after = { enabled: false, severity: "error", settings: { detect_api_keys: true, exclude_paths: [] } };
    expect(policyChanges(on, after)).toEqual({
      enabled: { before: true, after: false },
      "settings.detect_api_keys": { before: false, after: true },
    });
  });

  it("compares values, not key order or identity", () => {
    const a = { ...on, settings: { x: { b: 1, a: 2 } } };
    const b = { ...on, settings: { x: { a: 2, b: 1 } } };
    expect(policyChanges(a, b)).toEqual({});
  });

  it("shows a created or deleted policy against null", () => {
    expect(policyChanges(null, { enabled: true, severity: "warning", settings: {} })).toEqual({
      enabled: { before: null, after: true },
      severity: { before: null, after: "warning" },
    });
    expect(policyChanges({ enabled: true, severity: "warning", settings: {} }, null).severity).toEqual({
      before: "warning",
      after: null,
    });
  });
});

describe("policyUpdateType", () => {
  it("is disabled or enabled when enabled changed, whatever else did", () => {
    expect(policyUpdateType({ enabled: { before: true, after: false }, severity: { before: "e", after: "w" } })).toBe(
      "policy.disabled",
    );
    expect(policyUpdateType({ enabled: { before: false, after: true } })).toBe("policy.enabled");
    expect(policyUpdateType({ severity: { before: "error", after: "warning" } })).toBe("policy.updated");
    expect(policyUpdateType({})).toBe("policy.updated");
  });
});

describe("settingsAfterPatch", () => {
  const schema = z.strictObject({ detect: z.boolean().default(false), depth: z.number().default(3) });
  it("applies values and resets a null key to its default", () => {
    expect(settingsAfterPatch(schema, { detect: true, depth: 5 }, { detect: null, depth: 7 })).toEqual({
      detect: false,
      depth: 7,
    });
    expect(settingsAfterPatch(schema, { detect: false, depth: 3 }, {})).toEqual({ detect: false, depth: 3 });
  });
});
