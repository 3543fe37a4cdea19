// What `evaluate --staged` reads from a real git repository: the lines the next commit adds (the
// index against HEAD, every staged line before the first commit), placed on their lines in the
// staged file, whatever is in the work tree and whatever the user's diff settings; and where the
// work tree's top is, found without git when git would find it the plain way, asked of git
// otherwise.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { git as gitIn } from "../../../test/support/git.js";
import { gitRootAsync, workTreeTop } from "./git.js";
import { readStaged, STAGED, type CommitSlice } from "./history.js";

let repo: string;
const git = (...args: string[]) => gitIn(repo, ...args);
const write = (path: string, content: string | Buffer) => writeFileSync(join(repo, path), content);

beforeEach(() => {
  repo = realpathSync(mkdtempSync(join(tmpdir(), "verdict-staged-")));
  git("init", "-q", "-b", "main");
  git("config", "core.autocrlf", "false");
});
afterEach(() => rmSync(repo, { recursive: true, force: true }));

/** The slice as `path:line text` (the line in the staged file), checking each addition's lines against its text. */
const lines = (slice: CommitSlice) =>
  slice.additions.flatMap((a) => {
    expect(slice.commits[a.commit]).toEqual(STAGED);
    const texts = slice.text.toString("utf8", a.start, a.end).split("\n").slice(0, -1);
    expect(texts).toHaveLength(a.lines.length);
    return a.lines.map((n, i) => `${a.path}:${n} ${texts[i]}`);
  });

describe("the lines the next commit adds", () => {
  it("before the first commit: every staged line", async () => {
    write("a.js", "one\ntwo\n");
    git("add", "a.js");
    expect(lines(await readStaged(repo, []))).toEqual(["a.js:1 one", "a.js:2 two"]);
  });

  it("are the index's, placed on the staged file's lines; not the work tree's, not the committed ones", async () => {
    write("a.js", "one\ntwo\nthree\n");
    write("gone.js", "bye\n");
    git("add", ".");
    git("commit", "-q", "-m", "c1");
    // Staged: a line in the middle and one at the end, a new file, a copy with the same content,
    // a binary file, a deletion. Then the work tree changes again, unstaged.
    write("a.js", "one\ninserted\ntwo\nthree\nlast\n");
    write("b.js", "new\n");
    write("copy.js", "new\n");
    write("tab\there.js", "x\n");
    write("bin.dat", Buffer.from([0, 1, 2, 0x0a]));
    git("rm", "-q", "gone.js");
    git("add", ".");
    write("a.js", "one\ninserted\ntwo\nthree\nlast\nunstaged\n");
    write("untracked.js", "not staged\n");
    expect(lines(await readStaged(repo, []))).toEqual([
      "a.js:2 inserted",
      "a.js:5 last",
      "b.js:1 new",
      "copy.js:1 new", // the same blob as b.js: read again (a history reads it once)
      "tab\there.js:1 x",
    ]);
  });

  it("are limited to the pathspecs given, relative to the directory git runs in", async () => {
    mkdirSync(join(repo, "src"));
    write("src/a.js", "a\n");
    write("b.js", "b\n");
    git("add", ".");
    expect(lines(await readStaged(join(repo, "src"), ["a.js"]))).toEqual(["src/a.js:1 a"]);
    // From a subdirectory without pathspecs: the whole index, paths from the top.
    expect(lines(await readStaged(join(repo, "src"), []))).toEqual(["b.js:1 b", "src/a.js:1 a"]);
  });

  it("are read the same whatever the user's diff settings", async () => {
    mkdirSync(join(repo, "src"));
    write("src/a.js", "a\n");
    write("b.js", "b\n");
    git("add", ".");
    for (const [key, value] of [
      ["diff.noprefix", "true"],
      ["diff.mnemonicPrefix", "true"],
      ["diff.relative", "true"],
      ["diff.external", "false"],
      ["color.diff", "always"],
      ["core.quotePath", "true"],
    ])
      git("config", key!, value!);
    write("café.js", "é\n");
    git("add", ".");
    expect(lines(await readStaged(join(repo, "src"), []))).toEqual(["b.js:1 b", "café.js:1 é", "src/a.js:1 a"]);
  });

  it("fail outside a repository (git's usage: the command says why first, from the work tree's top)", async () => {
    const outside = mkdtempSync(join(tmpdir(), "verdict-not-a-repo-"));
    try {
      await expect(readStaged(outside, [])).rejects.toThrow(/cached|not a git repository/);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe("the work tree's top", () => {
  it("is found without git from the top or a subdirectory, as git finds it", async () => {
    mkdirSync(join(repo, "src/deep"), { recursive: true });
    for (const dir of [repo, join(repo, "src"), join(repo, "src/deep")]) {
      expect(await workTreeTop(dir, {})).toBe(repo);
      expect(await gitRootAsync(dir)).toBe(repo);
    }
  });

  it("is asked of git for a linked work tree, a work tree moved by core.worktree or by the environment", async () => {
    write("a.js", "a\n");
    git("add", ".");
    git("commit", "-q", "-m", "c1");
    const elsewhere = realpathSync(mkdtempSync(join(tmpdir(), "verdict-elsewhere-")));
    const linked = join(elsewhere, "linked");
    git("worktree", "add", "-q", linked);
    try {
      // A `.git` file (a linked work tree, a submodule): git reads where the repository is from it.
      expect(await workTreeTop(join(linked), {})).toBe(linked);
      // GIT_DIR and GIT_WORK_TREE: from a directory that is no repository, the work tree they name.
      const named = { ...process.env, GIT_DIR: join(repo, ".git"), GIT_WORK_TREE: linked };
      expect(await workTreeTop(elsewhere, named)).toBe(linked);
      // core.worktree: the work tree is elsewhere than the `.git` directory's parent.
      const moved = join(elsewhere, "moved");
      mkdirSync(moved);
      git("config", "core.worktree", moved);
      expect(await workTreeTop(repo, {})).toBe(moved);
      git("config", "--unset", "core.worktree");
      expect(await workTreeTop(repo, {})).toBe(repo);
    } finally {
      git("worktree", "remove", "--force", linked);
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it("is null outside a repository", async () => {
    const outside = realpathSync(mkdtempSync(join(tmpdir(), "verdict-not-a-repo-")));
    try {
      expect(await workTreeTop(outside, {})).toBe(null);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
