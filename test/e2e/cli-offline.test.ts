// `verdict evaluate --offline`, black-box: the real CLI evaluates in its own process, on the
// built-in library or on the organization's policies pulled from a running Verdict, and keeps
// working once that Verdict is gone.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "@jest/globals";
import { isolatedHome, runCli } from "../support/cli.js";
import { startVerdict, type Verdict } from "../support/server.js";

const AWS_KEY = "AKIAZ7VQ3X4M2N8P5R6T";

let v: Verdict;
let repo: string;
let env: Record<string, string>;
const cli = (args: string[], extra: Record<string, string> = {}) =>
  runCli(args, { cwd: repo, env: { ...env, ...extra } });

interface Offline {
  passed: boolean;
  policy_version: string;
  violations: { policy_id: string; file: string; line: number }[];
}

beforeAll(async () => {
  v = await startVerdict();
  const home = isolatedHome();
  env = { ...home, XDG_CACHE_HOME: join(home.HOME, ".cache"), VERDICT_URL: v.url, VERDICT_API_KEY: v.bootstrapKey };
  repo = mkdtempSync(join(tmpdir(), "verdict-cli-offline-"));
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=Ada", "-c", "user.email=ada@example.com", ...args], { cwd: repo });
  git("init", "-q", "-b", "main");
  writeFileSync(join(repo, "config.js"), `const accessKey = "${AWS_KEY}";\nconst host = "db1.corp.acme.net";\n`);
  git("add", "config.js");
  git("commit", "-q", "-m", "config");
  writeFileSync(
    join(repo, "policy.json"),
    JSON.stringify({
      id: "no-internal-hosts",
      name: "No internal host names",
      severity: "error",
      patterns: [{ type: "regex", value: "\\b[a-z0-9-]+\\.corp\\.acme\\.net\\b", message: "Internal host name" }],
    }),
  );
});
afterAll(async () => v.destroy());

it("evaluates on the built-ins, then on the organization's pulled policies, with no server at all", async () => {
  // Nothing pulled yet: the built-in library, with the version the policy service gives it.
  const builtin = await cli(["evaluate", "--offline", "config.js", "--json"]);
  expect(builtin.code).toBe(1);
  expect(builtin.stderr).toMatch(/^offline: policy version (\S+) \(the built-in library of verdict \d+\.\d+\.\d+;/);
  const first = JSON.parse(builtin.stdout) as Offline;
  expect(first.violations.map((x) => [x.policy_id, x.line])).toEqual([["aws-credentials", 1]]);
  expect(builtin.stderr).toContain(first.policy_version);
  expect(builtin.stdout).not.toContain(AWS_KEY);

  // A new organization's policies are the built-ins: the same version.
  const pulled = await cli(["policies", "pull", "--json"]);
  expect(pulled.code).toBe(0);
  expect(JSON.parse(pulled.stdout)).toMatchObject({ url: v.url, version: first.policy_version });

  // The organization changes its policies and pulls them.
  expect((await cli(["policies", "disable", "aws-credentials"])).code).toBe(0);
  expect((await cli(["policies", "create", "policy.json"])).code).toBe(0);
  const again = await cli(["policies", "pull"]);
  expect(again.stdout).toMatch(/^stored \d+ policies \(\d+ enabled\) of .* policy version \S+\n$/);

  // The server is gone: offline evaluation needs none.
  await v.stop();
  const offline = await cli(["evaluate", "--offline", "config.js", "--json"]);
  expect(offline.stderr).toMatch(/^offline: policy version \S+ \(pulled from http:\/\/.* at \d{4}-/);
  expect(offline.code).toBe(1);
  const result = JSON.parse(offline.stdout) as Offline;
  expect(result.policy_version).not.toBe(first.policy_version);
  // aws-credentials is off: the catch-all generic-secrets reports the key instead, as the server would.
  expect(result.violations.map((x) => [x.policy_id, x.line])).toEqual([
    ["generic-secrets", 1],
    ["no-internal-hosts", 2],
  ]);
  // The change since HEAD, whole files (here an untracked file); the pre-commit hook's --staged: cli-staged.test.ts.
  writeFileSync(join(repo, "new.js"), `export const host = "ci.corp.acme.net";\n`);
  const change = await cli(["evaluate", "--offline", "--base", "HEAD", "--json"]);
  expect(change.code).toBe(1);
  expect((JSON.parse(change.stdout) as Offline).violations.map((x) => [x.policy_id, x.file])).toEqual([
    ["no-internal-hosts", "new.js"],
  ]);
  // Online, the same command cannot reach it.
  expect((await cli(["evaluate", "config.js"])).code).toBe(2);
  // Only some policies, as online: unknown ids are an error.
  const some = await cli(["evaluate", "--offline", "--policy", "private-keys", "config.js"]);
  expect(some.code).toBe(0);
  expect(some.stdout).toMatch(/^passed: 0 errors, 0 warnings in 1 file\n$/);
  const unknown = await cli(["evaluate", "--offline", "--policy", "no-such-policy", "config.js"]);
  expect({ code: unknown.code, stderr: unknown.stderr }).toEqual({
    code: 2,
    stderr: "verdict: unknown policy: no-such-policy\n",
  });
  // An unknown ref is said as such, with paths or without, and so is one git would read as an option.
  for (const args of [["--base", "no-such-ref"], ["--base", "no-such-ref", "gone.js"], ["--base=--output=out.txt"]]) {
    const r = await cli(["evaluate", "--offline", ...args]);
    expect({ code: r.code, error: r.stderr.split("\n").filter((l) => l.startsWith("verdict:")) }).toEqual({
      code: 2,
      error: [`verdict: unknown git ref: ${args[0] === "--base" ? "no-such-ref" : "--output=out.txt"}`],
    });
  }
  expect(existsSync(join(repo, "out.txt"))).toBe(false);
});
