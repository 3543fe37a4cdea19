// The `verdict` command on a developer's machine, black-box: the real binary against a running
// Verdict, in git repositories made here. Typos in paths fail, pipes into `head` end quietly,
// options leave the paths alone, and baselines accept the findings an old repository already has.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { CLI, isolatedHome, runCli, runCommand } from "../support/cli.js";
import { startVerdict, type Verdict } from "../support/server.js";

const AWS_KEY = "AKIAZ7VQ3X4M2N8P5R6T";

let v: Verdict;
let env: Record<string, string>;

const cli = (args: string[], cwd: string) => runCli(args, { cwd, env });

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "Ada",
      GIT_AUTHOR_EMAIL: "ada@example.com",
      GIT_COMMITTER_NAME: "Ada",
      GIT_COMMITTER_EMAIL: "ada@example.com",
    },
  });
}

function write(root: string, path: string, content: string): void {
  mkdirSync(join(root, path, ".."), { recursive: true });
  writeFileSync(join(root, path), content);
}

/** A new git repository with `files` committed on main. */
function repository(files: Record<string, string>): string {
  const repo = mkdtempSync(join(tmpdir(), "verdict-cli-local-"));
  git(repo, "init", "-q", "-b", "main");
  git(repo, "remote", "add", "origin", "git@github.com:acme/old-app.git");
  for (const [path, content] of Object.entries(files)) write(repo, path, content);
  git(repo, "add", ".");
  git(repo, "commit", "-q", "-m", "initial");
  return repo;
}

/** An AWS access key id of the real shape, different for each `i`. */
const awsKey = (i: number) => "AKIA" + (i * 7919 + 104729).toString(36).toUpperCase().padStart(8, "R2D8") + "Z7VQ3X4M";

beforeAll(async () => {
  v = await startVerdict();
  env = { ...isolatedHome(), VERDICT_URL: v.url, VERDICT_API_KEY: v.bootstrapKey };
});
afterAll(async () => v.destroy());

describe("mistakes on the command line", () => {
  it("fails, exit 2, on a path that does not exist, in a repository and outside one, with or without --base", async () => {
    const repo = repository({ "src/app.js": "export const a = 1;\n" });
    const outside = mkdtempSync(join(tmpdir(), "verdict-cli-plain-"));
    write(outside, "app.js", "export const a = 1;\n");
    for (const [args, cwd] of [
      [["evaluate", "src/ap.js"], repo],
      [["evaluate", "src/app.js", "srcc"], repo],
      [["evaluate", "--base", "main", "src/ap.js"], repo],
      [["evaluate", "ap.js"], outside],
    ] as const) {
      const r = await cli([...args], cwd);
      expect({ code: r.code, stderr: r.stderr }).toEqual({
        code: 2,
        stderr: expect.stringMatching(/^verdict: no such file or directory: (src\/ap\.js|srcc|ap\.js)/),
      });
    }
    // A file deleted since REF is still a path of the change.
    git(repo, "rm", "-q", "src/app.js");
    expect((await cli(["evaluate", "--base", "main", "src/app.js"], repo)).code).toBe(0);
  });

  it("leaves the paths after --policy ID to the paths", async () => {
    const repo = repository({ "config.js": `const k = "${AWS_KEY}";\n` });
    const r = await cli(["evaluate", "--policy", "private-keys", ".", "--json"], repo);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).summary).toMatchObject({ total_files: 1, errors: 0 });
    const both = await cli(["evaluate", "--policy", "private-keys,aws-credentials", ".", "--json"], repo);
    expect(both.code).toBe(1);
    expect(JSON.parse(both.stdout).violations.map((x: { policy_id: string }) => x.policy_id)).toEqual([
      "aws-credentials",
    ]);
  });

  it("ends quietly when piped into head, keeping the evaluation's exit code", async () => {
    // Hundreds of findings: more JSON than a pipe holds, so the CLI writes after head has gone.
    const lines = Array.from({ length: 400 }, (_, i) => `const k${i} = "${awsKey(i)}";`).join("\n");
    const repo = repository({ "keys.js": lines + "\n" });
    const r = await runCommand(
      "bash",
      ["-c", `set -o pipefail; node "${CLI}" evaluate keys.js --json | head -c 20; echo " exit=\${PIPESTATUS[0]}"`],
      { cwd: repo, env },
    );
    expect(r.stdout).toMatch(/^\{\n {2}"id": "eval_[\s\S]* exit=1\n$/);
    expect(r.stderr).toBe("");
  });
});
