import { afterAll, describe, expect, it } from "@jest/globals";
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encodeFile } from "./batches.js";
import { MAX_FILE_BYTES, readFile, sizeFiles } from "./files.js";
import { listFiles } from "./git.js";

const dir = mkdtempSync(join(tmpdir(), "verdict-cli-files-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function tree(files: Record<string, string | Buffer>): string {
  const root = mkdtempSync(join(dir, "t-"));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

/** What evaluate sends for each file of `root`: the decoded JSON entries, or the skip reasons. */
function sent(root: string) {
  const listed = listFiles(null, root, ["."]);
  const { files, skipped } = sizeFiles(
    root,
    listed.files.map((path) => ({ path, status: "modified" as const })),
  );
  return {
    skipped,
    read: files.map((f) => {
      const r = readFile(root, f);
      if (!r) return null;
      if ("skipped" in r) return r.skipped;
      return JSON.parse(Buffer.concat(encodeFile(r.file).chunks).toString("utf8")) as { path: string; content: string };
    }),
  };
}

describe("the files verdict evaluate sends from a directory outside git", () => {
  it("lists regular files under nested directories, not .git or node_modules anywhere, not symbolic links", () => {
    const root = tree({
      "a.ts": "a",
      "src/b.ts": "b",
      "src/deep/er/c.py": "c",
      "src/node_modules/x/index.js": "x",
      "node_modules/y.js": "y",
      ".git/config": "[core]",
      "sub/.git": "gitdir: elsewhere",
      "sub/d.go": "d",
    });
    symlinkSync(join(root, "a.ts"), join(root, "link.ts"));
    symlinkSync(join(root, "src"), join(root, "srclink"));
    expect(listFiles(null, root, ["."]).files).toEqual(["a.ts", "src/b.ts", "src/deep/er/c.py", "sub/d.go"]);
    // Paths are relative to the working directory, whichever directory is given.
    expect(listFiles(null, join(root, "src"), ["deep", "../sub"]).files).toEqual(["../sub/d.go", "deep/er/c.py"]);
    expect(listFiles(null, root, ["src/node_modules"]).files).toEqual([]);
  });

  it("reads each file whole, small after large, with what a file gained since it was sized", () => {
    const large = "y".repeat(200_000);
    const root = tree({ "1-large.txt": large, "2-small.txt": "small\n", "3-grows.txt": "before" });
    const listed = listFiles(null, root, ["."]);
    const { files } = sizeFiles(
      root,
      listed.files.map((path) => ({ path, status: "modified" as const })),
    );
    expect(files.map((f) => f.bytes)).toEqual([200_000, 6, 6]);
    appendFileSync(join(root, "3-grows.txt"), " and after".repeat(50_000));
    const contents = files.map((f) => {
      const r = readFile(root, f);
      return r && "file" in r ? encodeFile(r.file) : null;
    });
    const decoded = contents.map((e) => JSON.parse(Buffer.concat(e!.chunks).toString("utf8")).content);
    expect(decoded).toEqual([large, "small\n", `before${" and after".repeat(50_000)}`]);
  });

  it("skips binary and too large files, and files gone since they were listed", () => {
    const root = tree({
      "bin.dat": Buffer.from([1, 2, 0, 3]),
      "big.txt": "z".repeat(MAX_FILE_BYTES + 1),
      "text.md": 'quote " and é',
    });
    const listed = listFiles(null, root, ["."]);
    const { files, skipped } = sizeFiles(
      root,
      listed.files.map((path) => ({ path, status: "modified" as const })),
    );
    expect(skipped).toEqual([{ path: "big.txt", reason: `larger than ${MAX_FILE_BYTES} bytes` }]);
    rmSync(join(root, "text.md"));
    expect(files.map((f) => readFile(root, f))).toEqual([{ skipped: { path: "bin.dat", reason: "binary" } }, null]);
    expect(sent(tree({ "text.md": 'quote " and é' })).read).toEqual([
      { path: "text.md", content: 'quote " and é', status: "modified" },
    ]);
  });
});
