import { describe, expect, it } from "@jest/globals";
import { netPushFiles } from "./pushFiles.js";

describe("netPushFiles", () => {
  it("gives one entry per path, net of the push's commits (newest first)", () => {
    const files = netPushFiles([
      {
        sha: "c3",
        files: [
          { filename: "tmp.txt", status: "removed" },
          { filename: "back.txt", status: "added" },
          { filename: "a.js", status: "modified" },
        ],
      },
      { sha: "c2", files: [{ filename: "back.txt", status: "removed" }] },
      {
        sha: "c1",
        files: [
          { filename: "a.js", status: "added" },
          { filename: "tmp.txt", status: "added" },
          { filename: "README.md", status: "modified" },
        ],
      },
    ]);
    expect(files).toEqual([
      { path: "a.js", status: "added" },
      { path: "tmp.txt", status: "removed" },
      { path: "README.md", status: "modified" },
      { path: "back.txt", status: "modified" },
    ]);
  });

  it("reads a commit without files (a merge, an empty commit) as nothing changed", () => {
    expect(netPushFiles([{ sha: "c1", files: null }, { sha: "c0" }])).toEqual([]);
  });
});
