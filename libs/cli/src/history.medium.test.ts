// What `scan history` reads from a real git repository: the added lines of each commit, as bytes
// (CRLF, a lone CR, invalid UTF-8 and quoted names as git writes them), each blob once, and the
// same whether read in one go or streamed in slices of one `git log`.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { commitList, readSlice, readSlices, type CommitSlice } from "./history.js";

let repo: string;
const git = (...args: string[]) =>
  execFileSync("git", args, {
    cwd: repo,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "Ada",
      GIT_AUTHOR_EMAIL: "ada@example.com",
      GIT_COMMITTER_NAME: "Ada",
      GIT_COMMITTER_EMAIL: "ada@example.com",
    },
  });
const commit = (files: Record<string, string | Buffer>, message: string) => {
  for (const [path, content] of Object.entries(files)) writeFileSync(join(repo, path), content);
  git("add", "-A");
  git("commit", "-q", "-m", message);
};

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), "verdict-history-"));
  git("init", "-q", "-b", "main");
  git("config", "core.autocrlf", "false");
  commit({ "a.js": "one\ntwo\n" }, "c1");
  commit({ "a.js": "one\ntwo\nthree\r\nfour\rfive\n", "tab\there.js": "x\n" }, "c2");
  commit({ "b.txt": Buffer.from([0x6f, 0x6b, 0xff, 0x0a]), "bin.dat": Buffer.from([0, 1, 2, 0x0a]) }, "c3");
  commit({ "c.js": "one\ntwo\n" }, "c4"); // the blob of c1's a.js again
  commit({ "a.js": "zero\none\ntwo\nthree\r\nfour\rfive\n" }, "c5");
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

/** A slice as lines: `commit message index path:line text`. */
const lines = (slice: CommitSlice, shas: string[]) =>
  slice.additions.flatMap((a) => {
    const texts = slice.text.toString("utf8", a.start, a.end).split("\n").slice(0, -1);
    expect(texts).toHaveLength(a.lines.length);
    return a.lines.map(
      (n, i) => `c${shas.indexOf(slice.commits[a.commit]!.sha) + 1} ${a.path}:${n} ${JSON.stringify(texts[i])}`,
    );
  });

describe("the added lines of a history", () => {
  const expected = [
    'c1 a.js:1 "one"',
    'c1 a.js:2 "two"',
    'c2 a.js:3 "three"',
    'c2 a.js:4 "four\\rfive"', // a lone CR is no line end (the engine reads it as in the file)
    'c2 tab\there.js:1 "x"',
    'c3 b.txt:1 "ok\uFFFD"',
    'c5 a.js:1 "zero"',
  ];

  it("are read in one go, each blob once, binary files left out", async () => {
    const shas = await commitList(repo, ["HEAD"]);
    expect(shas).toHaveLength(5);
    const slice = await readSlice(repo, shas, new Set());
    expect(slice.commits.map((c) => [c.author, c.email])).toEqual(shas.map(() => ["Ada", "ada@example.com"]));
    expect(lines(slice, shas)).toEqual(expected);
  });

  it("are the same streamed in slices of one git log, each slice naming the blobs first seen in it", async () => {
    const shas = await commitList(repo, ["HEAD"]);
    const seen = new Set<string>();
    const slices = [];
    for await (const slice of readSlices(repo, shas, 2, seen)) slices.push(slice);
    expect(slices.map((s) => s.commits.map((c) => shas.indexOf(c.sha) + 1))).toEqual([[1, 2], [3, 4], [5]]);
    expect(slices.flatMap((s) => lines(s, shas))).toEqual(expected);
    expect(new Set(slices.flatMap((s) => s.blobs))).toEqual(seen);
    expect(seen.size).toBe(6);
  });

  it("are the same whatever the user's diff settings (no prefixes, relative paths, a textconv filter)", async () => {
    const shas = await commitList(repo, ["HEAD"]);
    const settings = [
      ["diff.noprefix", "true"],
      ["diff.mnemonicPrefix", "true"],
      ["diff.relative", "true"],
      ["color.diff", "always"],
      ["diff.upper.textconv", "tr a-z A-Z"],
    ];
    writeFileSync(join(repo, ".git/info/attributes"), "*.js diff=upper\n");
    for (const [key, value] of settings) git("config", key!, value!);
    try {
      expect(lines(await readSlice(repo, shas, new Set()), shas)).toEqual(expected);
    } finally {
      for (const [key] of settings) git("config", "--unset", key!);
      rmSync(join(repo, ".git/info/attributes"));
    }
  });

  it("fails with git's message on a commit that does not exist", async () => {
    const read = async () => {
      for await (const _ of readSlices(repo, ["0123456789012345678901234567890123456789"], 2, new Set()));
    };
    await expect(read()).rejects.toThrow(/bad object|unknown revision/);
  });
});
