// `verdict evaluate --staged`, black-box: the real CLI checks the lines the next commit adds (git's
// index against HEAD), as a pre-commit hook sees them, against a running Verdict and offline,
// finding for finding, each on its line in the staged file: not the lines committed before, not
// the work tree's unstaged edits or untracked files.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "@jest/globals";
import { isolatedHome, runCli } from "../support/cli.js";
import { commit, git, repository, write } from "../support/git.js";
import { startVerdict, type Verdict } from "../support/server.js";

const COMMITTED_KEY = "AKIAZ7VQ3X4M2N8P5R6T";
const STAGED_KEY = "AKIAQ4N7X2M8V5R3T6W9";
const UNSTAGED_KEY = "AKIAW2R8T5N3Q7M4X6V9";
const NEW_FILE_KEY = "AKIAT6V9W3Q8N2R5M4X7";

interface Result {
  passed: boolean;
  summary: { total_files: number; errors: number };
  violations: { policy_id: string; file: string; line: number; column: number; fingerprint: string }[];
}

let v: Verdict;
let env: Record<string, string>;
let offlineEnv: Record<string, string>;
let repo: string;

beforeAll(async () => {
  v = await startVerdict();
  const home = isolatedHome();
  env = { ...home, XDG_CACHE_HOME: join(home.HOME, ".cache"), VERDICT_URL: v.url, VERDICT_API_KEY: v.bootstrapKey };
  // Offline: nothing listens on port 9, so a request would fail the command.
  offlineEnv = { ...env, VERDICT_URL: "http://127.0.0.1:9" };
  repo = repository({ "config.js": `const accessKey = "${COMMITTED_KEY}";\nconst region = "eu-west-1";\n` });
  commit(repo, "a service", { "service.py": "import os\n" });
  // Staged: a key inserted at line 2 of config.js, and a new file with another.
  write(
    repo,
    "config.js",
    `const accessKey = "${COMMITTED_KEY}";\nconst backup = "${STAGED_KEY}";\nconst region = "eu-west-1";\n`,
  );
  write(repo, "src/new.js", `// new\nexport const key = "${NEW_FILE_KEY}";\n`);
  git(repo, "add", "config.js", "src/new.js");
  // Then the work tree moves on: the staged key edited away, another key added; an untracked file.
  write(
    repo,
    "config.js",
    `const accessKey = "${COMMITTED_KEY}";\nconst backup = process.env.BACKUP;\nconst region = "eu-west-1";\nconst k = "${UNSTAGED_KEY}";\n`,
  );
  write(repo, "untracked.js", `const k = "${UNSTAGED_KEY}";\n`);
});
afterAll(async () => v.destroy());

const located = (r: Result) => r.violations.map((x) => `${x.policy_id} ${x.file}:${x.line}:${x.column}`);

it("checks what the commit will add, on the staged files' lines, online and offline finding for finding", async () => {
  const online = await runCli(["evaluate", "--staged", "--json"], { cwd: repo, env });
  expect(online.code).toBe(1);
  const there = JSON.parse(online.stdout) as Result;
  expect(located(there)).toEqual(["aws-credentials config.js:2:17", "aws-credentials src/new.js:2:21"]);
  expect(there.summary).toMatchObject({ total_files: 2, errors: 2 });

  const offline = await runCli(["evaluate", "--offline", "--staged", "--json"], { cwd: repo, env: offlineEnv });
  expect(offline.code).toBe(1);
  expect(offline.stderr).toMatch(/^offline: policy version \S+ \(the built-in library of verdict /);
  const here = JSON.parse(offline.stdout) as Result;
  expect(located(here)).toEqual(located(there));
  expect(here.violations.map((x) => x.fingerprint)).toEqual(there.violations.map((x) => x.fingerprint));
  expect(here.summary).toMatchObject({ total_files: 2, errors: 2 });

  // As text, from a subdirectory: the same findings, paths from the top; no key printed whole.
  const text = await runCli(["evaluate", "--offline", "--staged"], { cwd: join(repo, "src"), env: offlineEnv });
  expect(text.code).toBe(1);
  expect(text.stdout).toMatch(/^config\.js:2:17 error aws-credentials /m);
  expect(text.stdout).toMatch(/^src\/new\.js:2:21 error aws-credentials /m);
  expect(text.stdout).toMatch(/^failed: 2 errors, 0 warnings in 2 files$/m);
  for (const key of [COMMITTED_KEY, STAGED_KEY, UNSTAGED_KEY, NEW_FILE_KEY]) expect(text.stdout).not.toContain(key);

  // Only the paths given (relative to where it runs).
  const one = await runCli(["evaluate", "--offline", "--staged", "new.js", "--json"], {
    cwd: join(repo, "src"),
    env: offlineEnv,
  });
  expect(located(JSON.parse(one.stdout) as Result)).toEqual(["aws-credentials src/new.js:2:21"]);
});

it("passes a commit that adds nothing the policies find, and says when nothing is staged", async () => {
  const clean = repository({ "a.js": "export const a = 1;\n" });
  try {
    write(clean, "a.js", "export const a = 1;\nexport const b = 2;\n");
    git(clean, "add", "a.js");
    const passed = await runCli(["evaluate", "--offline", "--staged"], { cwd: clean, env: offlineEnv });
    expect({ code: passed.code, stdout: passed.stdout }).toEqual({
      code: 0,
      stdout: "passed: 0 errors, 0 warnings in 1 file\n",
    });
    git(clean, "commit", "-q", "-m", "b");
    const nothing = await runCli(["evaluate", "--offline", "--staged"], { cwd: clean, env: offlineEnv });
    expect(nothing.code).toBe(0);
    expect(nothing.stderr).toContain("nothing to evaluate: no changed or readable text files");
  } finally {
    rmSync(clean, { recursive: true, force: true });
  }
});

it("checks a repository's first commit, before there is a HEAD", async () => {
  const fresh = mkdtempSync(join(tmpdir(), "verdict-staged-fresh-"));
  try {
    git(fresh, "init", "-q", "-b", "main");
    write(fresh, "app.js", `const a = 1;\nconst key = "${NEW_FILE_KEY}";\n`);
    git(fresh, "add", "app.js");
    const r = await runCli(["evaluate", "--offline", "--staged", "--json"], { cwd: fresh, env: offlineEnv });
    expect(r.code).toBe(1);
    expect(located(JSON.parse(r.stdout) as Result)).toEqual(["aws-credentials app.js:2:14"]);
  } finally {
    rmSync(fresh, { recursive: true, force: true });
  }
});

it("applies the baseline to the added lines, without calling the entries of lines it did not read fixed", async () => {
  // Made from the work tree (the committed key, the unstaged ones, src/new.js's key): not the
  // key staged in config.js, which the work tree no longer has.
  const made = await runCli(["baseline", "create"], { cwd: repo, env });
  expect(made.code).toBe(0);
  const baseline = JSON.parse(readFileSync(join(repo, ".verdict/baseline.json"), "utf8")) as {
    findings: { file: string; line: number }[];
  };
  expect(baseline.findings.map((e) => `${e.file}:${e.line}`).sort()).toEqual(
    ["config.js:1", "config.js:4", "src/new.js:2", "untracked.js:1"].sort(),
  );
  for (const [args, e] of [
    [["evaluate", "--offline", "--staged"], offlineEnv],
    [["evaluate", "--staged"], env],
  ] as const) {
    const r = await runCli([...args], { cwd: repo, env: e });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^config\.js:2:17 error aws-credentials /m);
    expect(r.stdout).not.toContain("src/new.js");
    expect(r.stderr).toContain("1 finding accepted by the baseline");
    expect(r.stderr).not.toContain("no longer found");
  }
  rmSync(join(repo, ".verdict"), { recursive: true, force: true });
});

it("refuses what it cannot check, with the reason and exit 2", async () => {
  const outside = mkdtempSync(join(tmpdir(), "verdict-staged-outside-"));
  try {
    const cases: [string[], string, string][] = [
      [
        ["--staged", "--base", "HEAD"],
        repo,
        "verdict: --staged and --base cannot be used together: --staged checks the index against HEAD",
      ],
      [["--staged"], outside, "verdict: --staged needs a git repository (run it inside the work tree)"],
      [["--staged", "nope.js"], repo, "verdict: no such file or directory: nope.js"],
      [
        ["--staged", outside],
        repo,
        `verdict: ${outside} is outside the repository at ${git(repo, "rev-parse", "--show-toplevel").trim()}`,
      ],
    ];
    for (const [args, cwd, error] of cases) {
      const r = await runCli(["evaluate", "--offline", ...args], { cwd, env: offlineEnv });
      expect({ code: r.code, error: r.stderr.split("\n").filter((l) => l.startsWith("verdict:")) }).toEqual({
        code: 2,
        error: [error],
      });
    }
  } finally {
    rmSync(outside, { recursive: true, force: true });
  }
});
