import { describe, expect, it } from "@jest/globals";
import { addedLinesByPath } from "./diff.js";

describe("addedLinesByPath", () => {
  it("numbers the added lines of each file's new side, across hunks; deletions and removed files add nothing", () => {
    const diff = [
      "diff --git a/a.ts b/a.ts",
      "index 1..2 100644",
      "--- a/a.ts",
      "+++ b/a.ts",
      "@@ -1,3 +1,4 @@",
      " one",
      "-two",
      "+TWO",
      "+++ not a header: an added line",
      " three",
      "@@ -10,2 +11,2 @@ function x() {",
      " ten",
      "+eleven",
      "\\ No newline at end of file",
      "diff --git a/gone.ts b/gone.ts",
      "deleted file mode 100644",
      "--- a/gone.ts",
      "+++ /dev/null",
      "@@ -1 +0,0 @@",
      "-bye",
      "diff --git a/new.ts b/new.ts",
      "new file mode 100644",
      "--- /dev/null",
      "+++ b/new.ts",
      "@@ -0,0 +1,2 @@",
      "+first",
      "+second",
      "",
    ].join("\n");
    expect(Object.fromEntries(addedLinesByPath(diff))).toEqual({ "a.ts": [2, 3, 12], "new.ts": [1, 2] });
  });
});
