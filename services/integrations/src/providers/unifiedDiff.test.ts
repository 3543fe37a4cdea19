import { describe, expect, it } from "@jest/globals";
import { addedLines } from "./unifiedDiff.js";

describe("addedLines", () => {
  it("numbers the added lines of the new file across hunks", () => {
    const patch = [
      "@@ -1,3 +1,4 @@",
      " keep",
      "-old",
      "+new one",
      "+new two",
      " keep",
      "@@ -10,2 +11,3 @@ function f() {",
      " context",
      "+added",
      " context",
      "\\ No newline at end of file",
    ].join("\n");
    expect(addedLines(patch)).toEqual([2, 3, 12]);
  });

  it("reads a new file's single hunk and skips a diff header", () => {
    expect(addedLines("--- /dev/null\n+++ b/x.txt\n@@ -0,0 +1,2 @@\n+a\n+b\n")).toEqual([1, 2]);
  });

  it("gives nothing for a removal or an empty patch", () => {
    expect(addedLines("@@ -1,2 +0,0 @@\n-a\n-b")).toEqual([]);
    expect(addedLines("")).toEqual([]);
  });
});
