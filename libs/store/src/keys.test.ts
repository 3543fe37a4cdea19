import { describe, expect, it } from "@jest/globals";
import { storableKeys, storedKeys } from "./keys.js";

describe("storableKeys / storedKeys", () => {
  const value = {
    changes: {
      "settings.require_evaluation_pass": { before: true, after: false },
      "100%.done": { before: null, after: "a.b" },
      $where: [{ "x.y": 1, "%2E": "literal" }],
    },
    at: "2026-11-28T10:00:00.000Z",
    n: 3,
    none: null,
  };

  it("leaves no '.' and no leading '$' in any key, at any depth, and values untouched", () => {
    const stored = storableKeys(value);
    const keys = JSON.stringify(stored).match(/"[^"]*":/g)!;
    for (const k of keys) expect(k).not.toMatch(/^"\$|\./);
    expect((stored.changes as Record<string, unknown>)["100%25%2Edone"]).toEqual({ before: null, after: "a.b" });
    expect(stored.at).toBe(value.at);
  });

  it("reads back exactly what was stored, even keys that look encoded", () => {
    expect(storedKeys(storableKeys(value))).toEqual(value);
  });
});
