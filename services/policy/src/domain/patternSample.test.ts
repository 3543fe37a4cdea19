import { describe, expect, it } from "@jest/globals";
import { matchSample } from "./patternSample.js";

describe("matchSample", () => {
  it("reports 1-based lines and columns in code points, after astral characters and CRLF", () => {
    const text = "a😀b key\r\nx key";
    expect(matchSample("key", text, 10)).toEqual({
      truncated: false,
      matches: [
        { line: 1, column: 5, end_line: 1, end_column: 8, text: "key" },
        { line: 2, column: 3, end_line: 2, end_column: 6, text: "key" },
      ],
    });
  });

  it("runs with the engine's flags: ^ at every line, Unicode classes", () => {
    expect(matchSample("^\\pL+", "Ärger\nÜbel", 10).matches.map((m) => m.text)).toEqual(["Ärger", "Übel"]);
  });

  it("stops at the cap and says so", () => {
    const res = matchSample("@", "@@@@", 3);
    expect(res.matches).toHaveLength(3);
    expect(res.truncated).toBe(true);
  });
});
