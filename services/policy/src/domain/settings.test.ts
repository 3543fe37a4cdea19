import { describe, expect, it } from "@jest/globals";
import { z } from "zod";
import { checkSettingsPatch, effectiveSettings, NO_SETTINGS } from "./settings.js";

const schema = z.strictObject({
  detect_api_keys: z.boolean().default(false),
  max_findings: z.number().int().default(10),
});

describe("policy settings", () => {
  it("merges stored overrides over defaults and ignores keys the schema no longer has", () => {
    expect(effectiveSettings(schema, undefined)).toEqual({ detect_api_keys: false, max_findings: 10 });
    expect(effectiveSettings(schema, { detect_api_keys: true, retired: 1 })).toEqual({
      detect_api_keys: true,
      max_findings: 10,
    });
    // A stored value of the wrong type (the setting's type changed) falls back to defaults.
    expect(effectiveSettings(schema, { max_findings: "many" })).toEqual({ detect_api_keys: false, max_findings: 10 });
  });

  it("reports unknown keys and wrong types under settings.<key>", () => {
    expect(checkSettingsPatch("p", schema, { detect_api_keys: true, max_findings: null })).toEqual([]);
    const problems = checkSettingsPatch("p", schema, { colour: "red", detect_api_keys: "yes" });
    expect(problems).toEqual([
      {
        field: "settings.colour",
        code: "INVALID_FORMAT",
        message: expect.stringContaining("Unknown setting 'colour'"),
      },
      {
        field: "settings.detect_api_keys",
        code: "INVALID_FORMAT",
        message: expect.stringContaining("expected boolean"),
      },
    ]);
  });

  it("treats Object.prototype members as unknown keys, not as settings", () => {
    const problems = checkSettingsPatch("p", schema, { constructor: 1, toString: "x", hasOwnProperty: true });
    expect(problems.map((p) => p.field)).toEqual([
      "settings.constructor",
      "settings.toString",
      "settings.hasOwnProperty",
    ]);
    expect(effectiveSettings(schema, { constructor: 1, valueOf: 2 })).toEqual({
      detect_api_keys: false,
      max_findings: 10,
    });
  });

  it("treats every key as unknown for a policy without settings", () => {
    expect(checkSettingsPatch("custom-one", NO_SETTINGS, { anything: true })).toEqual([
      {
        field: "settings.anything",
        code: "INVALID_FORMAT",
        message: "Unknown setting 'anything' for policy 'custom-one' (this policy has no settings)",
      },
    ]);
  });
});
