// The `verdict` command as one executable file (Node.js's single executable applications), run
// on a machine without Node.js: docs/install.md's "The single executable" run as written. It is
// built in the repository, then installed into an empty HOME with a PATH that holds git and the
// shell's tools but no Node.js, and from there it evaluates against a running Verdict and offline.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, expect, it } from "@jest/globals";
import { expectKeyFound, runCommand } from "../support/cli.js";
import { commit, git, repository, write } from "../support/git.js";
import { ROOT } from "../support/paths.js";
import { startVerdict, type Verdict } from "../support/server.js";
import { bash, shellBlocks } from "../support/shell.js";

const AWS_KEY = "AKIAZ7VQ3X4M2N8P5R6T";
const VERSION = (JSON.parse(readFileSync(join(ROOT, "libs/cli/package.json"), "utf8")) as { version: string }).version;

let v: Verdict;
let home: string;
/** The machine without Node.js: every command there runs with exactly this environment. */
let machine: Record<string, string>;

beforeAll(async () => {
  v = await startVerdict();
  home = mkdtempSync(join(tmpdir(), "verdict-sea-home-"));
  // The tools the docs' commands and the CLI use, and nothing else: no node, npm or pnpm.
  const bin = join(home, ".system-bin");
  mkdirSync(bin);
  for (const tool of ["git", "install", "mkdir", "chmod", "ls"]) {
    const path = execFileSync("bash", ["-c", `command -v ${tool}`], { encoding: "utf8" }).trim();
    symlinkSync(path, join(bin, tool));
  }
  machine = { HOME: home, PATH: bin };
});
afterAll(async () => v.destroy());

it("builds one executable that runs where no Node.js is installed, online and offline", async () => {
  const [build, install] = shellBlocks("docs/install.md", "## The single executable");

  // In the clone.
  const built = bash(build!, ROOT, { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? home }).trim();
  expect(basename(built)).toBe("verdict");

  // On the machine without Node.js.
  expect(() => bash("command -v node || command -v npm", home, machine)).toThrow();
  const downloads = mkdtempSync(join(tmpdir(), "verdict-sea-downloads-"));
  copyFileSync(built, join(downloads, "verdict"));
  const out = bash(install!, downloads, machine);
  expect(out.trim().split("\n").at(-1)).toBe(VERSION);

  const verdict = join(home, ".local/bin/verdict");
  const repo = repository({ "config.js": "const accessKey = process.env.AWS_ACCESS_KEY_ID;\n" });
  commit(repo, "a service", { "service.py": "import os\n" });
  write(repo, "new.js", `export const key = "${AWS_KEY}";\n`);

  const env = { ...machine, VERDICT_URL: v.url, VERDICT_API_KEY: v.bootstrapKey };
  await expectKeyFound(verdict, repo, env);

  // The engine inside the executable: RE2, ast-grep and its parsers (a structural Kotlin rule) from its assets.
  write(repo, "App.kt", 'fun run(dir: String) {\n    Runtime.getRuntime().exec("ls $dir")\n}\n');
  const offline = await runCommand(verdict, ["evaluate", "--offline", "new.js", "App.kt", "--json"], {
    cwd: repo,
    env: machine,
  });
  expect(offline.stderr).toMatch(/^offline: policy version \S+ \(the built-in library of verdict /);
  expect(offline.code).toBe(1);
  expect((JSON.parse(offline.stdout) as { violations: object[] }).violations).toEqual([
    expect.objectContaining({ rule_id: "kotlin-runtime-exec-template", file: "App.kt", line: 2 }),
    expect.objectContaining({ policy_id: "aws-credentials", file: "new.js", line: 1 }),
  ]);
  // As a pre-commit hook runs it: the lines the commit adds, from git's index.
  git(repo, "add", "new.js", "App.kt");
  const staged = await runCommand(verdict, ["evaluate", "--offline", "--staged", "--json"], {
    cwd: repo,
    env: machine,
  });
  expect(staged.code).toBe(1);
  expect((JSON.parse(staged.stdout) as { violations: object[] }).violations).toEqual([
    expect.objectContaining({ rule_id: "kotlin-runtime-exec-template", file: "App.kt", line: 2 }),
    expect.objectContaining({ policy_id: "aws-credentials", file: "new.js", line: 1 }),
  ]);
  // Written once into the user's cache, named by their content.
  const native = readdirSync(join(home, ".cache/verdict/native"));
  expect(native).toEqual(expect.arrayContaining([expect.stringMatching(/^[0-9a-f]{32}-re2\.node$/)]));
  const again = await runCommand(verdict, ["evaluate", "--offline", "new.js", "--json"], { cwd: repo, env: machine });
  expect(again.code).toBe(1);
  expect(readdirSync(join(home, ".cache/verdict/native")).sort()).toEqual([...native].sort());
});
