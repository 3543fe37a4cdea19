// The `verdict` command on a developer's machine, black-box: the real binary against a running
// Verdict, in git repositories made here. Typos in paths fail, pipes into `head` end quietly,
// options leave the paths alone, and baselines accept the findings an old repository already has.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { CLI, isolatedHome, runCli, runCommand } from "../support/cli.js";
import { ROOT } from "../support/paths.js";
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

describe("baselines: adopting Verdict on an old repository", () => {
  const PASSWORD = "hunter2-but-longer";
  const NEW_KEY = "AKIAQ4M7Z2X9V3N8P6RT";
  let repo: string;
  beforeAll(() => {
    repo = repository({
      "src/config.js": `const region = "eu-west-1";\nconst accessKey = "${AWS_KEY}";\n`,
      "app/settings.py": `DEBUG = False\npassword = "${PASSWORD}"\n`,
      "app/clean.py": "ANSWER = 42\n",
    });
  });

  it("baseline create writes .verdict/baseline.json with fingerprints, files and lines, never a secret", async () => {
    const r = await cli(["baseline", "create"], join(repo, "app"));
    expect(r).toMatchObject({ code: 0, stdout: "wrote ../.verdict/baseline.json: 2 findings accepted (2 entries)\n" });
    const text = readFileSync(join(repo, ".verdict/baseline.json"), "utf8");
    expect(text).not.toContain(AWS_KEY);
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toMatch(/AKIA|hunt/);
    const baseline = JSON.parse(text);
    expect(baseline).toMatchObject({ version: 1, created_at: expect.any(String) });
    expect(baseline.findings).toEqual([
      expect.objectContaining({ file: "app/settings.py", line: 2, policy_id: "hardcoded-credentials", count: 1 }),
      expect.objectContaining({ file: "src/config.js", line: 2, policy_id: "aws-credentials", count: 1 }),
    ]);
    for (const f of baseline.findings) expect(f.fingerprint).toMatch(/^[0-9a-f]{32}$/);
    // Committed, as the docs say: evaluating the work tree leaves it out.
    git(repo, "add", ".verdict/baseline.json");
    git(repo, "commit", "-q", "-m", "Verdict baseline");
  });

  it("evaluate skips the accepted findings, says how many, and still reports a new secret on an old line", async () => {
    const accepted = await cli(["evaluate", "."], repo);
    expect(accepted).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^passed: 0 errors, 0 warnings in 3 files/m),
    });
    expect(accepted.stderr).toBe("2 findings accepted by the baseline (.verdict/baseline.json) not shown\n");

    // Lines moved and other lines edited: still accepted.
    write(repo, "src/config.js", `// settings\nconst region = "us-east-1";\n\nconst accessKey = "${AWS_KEY}";\n`);
    const moved = await cli(["evaluate", ".", "--json"], repo);
    expect(moved.code).toBe(0);
    expect(JSON.parse(moved.stdout)).toMatchObject({ passed: true, baselined: 2, violations: [] });

    // Another key on the same line: a new finding; the old entry no longer matches anything.
    write(repo, "src/config.js", `// settings\nconst region = "us-east-1";\n\nconst accessKey = "${NEW_KEY}";\n`);
    const rotated = await cli(["evaluate", "."], repo);
    expect(rotated.code).toBe(1);
    expect(rotated.stdout).toMatch(/^src\/config\.js:4:20 error aws-credentials /m);
    expect(rotated.stderr).toMatch(/^1 finding accepted by the baseline/m);
    expect(rotated.stderr).toMatch(
      /^1 baseline entry no longer found \(fixed\): src\/config\.js:2 aws-credentials; run 'verdict baseline create' to drop it$/m,
    );
    // --no-baseline shows everything.
    const all = await cli(["evaluate", ".", "--no-baseline", "--json"], repo);
    expect(JSON.parse(all.stdout).summary.errors).toBe(2);
  });

  it("reports the findings of an expired entry again, and refuses a baseline file it cannot read", async () => {
    const file = join(repo, ".verdict/baseline.json");
    expect((await cli(["baseline", "create", "--expires", "30d"], repo)).code).toBe(0);
    const baseline = JSON.parse(readFileSync(file, "utf8"));
    expect(Date.parse(baseline.findings[0].expires_at) - Date.now()).toBeGreaterThan(29 * 86_400_000);
    expect((await cli(["evaluate", "."], repo)).code).toBe(0);
    baseline.findings[0].expires_at = "2020-01-01T00:00:00.000Z";
    writeFileSync(file, JSON.stringify(baseline));
    const r = await cli(["evaluate", "."], repo);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^baseline entry expired on 2020-01-01T00:00:00.000Z: app\/settings.py:2 hardcoded-credentials is reported again$/m,
    );
    writeFileSync(file, "{ not json");
    const broken = await cli(["evaluate", "."], repo);
    expect({ code: broken.code, stderr: broken.stderr }).toEqual({
      code: 2,
      stderr: expect.stringMatching(/^verdict: baseline .*baseline\.json cannot be used: not JSON\n$/),
    });
  });
});

describe("verdict scan history", () => {
  const PASSWORD = "hunter2-but-longer";
  let repo: string;
  let added: string;
  let feature: string;
  beforeAll(() => {
    repo = repository({ "app.js": "export const a = 1;\n" });
    write(repo, "config.js", `const region = "eu-west-1";\nconst accessKey = "${AWS_KEY}";\n`);
    git(repo, "add", ".");
    git(repo, "commit", "-q", "-m", "add config");
    added = git(repo, "rev-parse", "HEAD").trim();
    write(repo, "config.js", `const region = "eu-west-1";\nconst accessKey = process.env.AWS_ACCESS_KEY_ID;\n`);
    git(repo, "commit", "-q", "-am", "remove the key");
    // A binary file (a NUL byte) with a key in it, and a rename: neither adds a text line to scan.
    writeFileSync(join(repo, "blob.bin"), Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from(AWS_KEY)]));
    git(repo, "add", ".");
    git(repo, "commit", "-q", "-m", "binary");
    git(repo, "mv", "config.js", "settings.js");
    git(repo, "commit", "-q", "-m", "rename");
    // A branch merged with a merge commit.
    git(repo, "checkout", "-q", "-b", "feature");
    write(repo, "db.py", `DEBUG = False\npassword = "${PASSWORD}"\n`);
    git(repo, "add", ".");
    git(repo, "commit", "-q", "-m", "db settings");
    feature = git(repo, "rev-parse", "HEAD").trim();
    git(repo, "checkout", "-q", "main");
    write(repo, "README.md", "# old app\n");
    git(repo, "add", ".");
    git(repo, "commit", "-q", "-m", "readme");
    git(repo, "merge", "-q", "--no-ff", "-m", "merge feature", "feature");
  });

  it("finds a key added in one commit and removed in the next, with commit, author, date, file and line", async () => {
    const r = await cli(["scan", "history", "--json"], repo);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.commits).toBe(7); // not the merge commit: its changes are its parents'
    expect(
      out.findings.map((f: Record<string, unknown>) => [f.commit, f.author, f.email, f.file, f.line, f.policy_id]),
    ).toEqual([
      [added, "Ada", "ada@example.com", "config.js", 2, "aws-credentials"],
      [feature, "Ada", "ada@example.com", "db.py", 2, "hardcoded-credentials"],
    ]);
    expect(out.findings[0].date).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(out.findings[0].fingerprint).toMatch(/^[0-9a-f]{32}$/);
    expect(r.stdout).not.toContain(AWS_KEY);
    expect(r.stdout).not.toContain(PASSWORD);

    const text = await cli(["scan", "history"], repo);
    expect(text.stdout).toMatch(
      new RegExp(`^${added.slice(0, 10)} \\d{4}-\\d\\d-\\d\\d Ada config\\.js:2:20 error aws-credentials `, "m"),
    );
    expect(text.stdout).toMatch(/^failed: 2 findings \(2 errors\) in 7 commits$/m);
  });

  it("scans offline, slice after slice, with the server's findings and no network call", async () => {
    const online = JSON.parse((await cli(["scan", "history", "--json"], repo)).stdout);
    // Nothing listens on port 9: a request would fail the command.
    const r = await runCli(["scan", "history", "--offline", "--json", "--slice", "2"], {
      cwd: repo,
      env: { ...env, VERDICT_URL: "http://127.0.0.1:9" },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^offline: policy version \S+ \(the built-in library of verdict /m);
    expect(r.stderr).toMatch(/^scanned 7 of 7 commits$/m);
    expect(JSON.parse(r.stdout)).toEqual(online);
    // Three engine threads, a slice a commit: slices scanned side by side, saved and reported in order.
    const threads = await runCli(["scan", "history", "--offline", "--json", "--slice", "1", "--threads", "3"], {
      cwd: repo,
      env: { ...env, VERDICT_URL: "http://127.0.0.1:9" },
    });
    expect(threads.stderr).toMatch(/^scanned 7 of 7 commits$/m);
    expect(JSON.parse(threads.stdout)).toEqual(online);
  });

  it("runs only the policies asked for: --policy, --category (the secrets, as gitleaks looks for), online and offline", async () => {
    const offline = { cwd: repo, env: { ...env, VERDICT_URL: "http://127.0.0.1:9" } };
    const found = (r: { stdout: string }) =>
      JSON.parse(r.stdout).findings.map((f: { file: string; policy_id: string }) => `${f.file} ${f.policy_id}`);
    const both = ["config.js aws-credentials", "db.py hardcoded-credentials"];
    for (const r of [
      await cli(["scan", "history", "--json", "--category", "secrets"], repo),
      await runCli(["scan", "history", "--json", "--offline", "--category", "secrets"], offline),
    ])
      expect(found(r)).toEqual(both);
    for (const r of [
      await cli(["scan", "history", "--json", "--policy", "aws-credentials"], repo),
      await runCli(["scan", "history", "--json", "--offline", "--policy", "aws-credentials"], offline),
    ])
      expect(found(r)).toEqual(["config.js aws-credentials"]);
    const none = await runCli(
      ["scan", "history", "--json", "--offline", "--category", "security,configuration"],
      offline,
    );
    expect([none.code, found(none)]).toEqual([0, []]);
    const typo = await cli(["scan", "history", "--category", "secret"], repo);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(
      /^verdict: no policy in category secret \(there are: configuration, secrets, security\)$/m,
    );
    // Offline, the engine's thread resolves the policies: the same usage errors, exit 2, no scan.
    const offlineTypo = await runCli(["scan", "history", "--offline", "--category", "secret"], offline);
    expect({ code: offlineTypo.code, stdout: offlineTypo.stdout }).toEqual({ code: 2, stdout: "" });
    expect(offlineTypo.stderr).toMatch(
      /^verdict: no policy in category secret \(there are: configuration, secrets, security\)$/m,
    );
    const unknown = await runCli(["scan", "history", "--offline", "--policy", "no-such-policy"], offline);
    expect({ code: unknown.code, stderr: unknown.stderr }).toEqual({
      code: 2,
      stderr: expect.stringMatching(/^verdict: unknown policy: no-such-policy$/m),
    });
  });

  it("runs the secrets policies unless told (--every-policy: insecure code and configuration too)", async () => {
    // Django's DEBUG = True (configuration) and a key in one commit, both removed in the next.
    const old = repository({ "README.md": "# app\n" });
    write(old, "settings.py", `DEBUG = True\nAWS_ACCESS_KEY_ID = "${AWS_KEY}"\n`);
    git(old, "add", ".");
    git(old, "commit", "-q", "-m", "settings");
    write(old, "settings.py", `DEBUG = False\nAWS_ACCESS_KEY_ID = None\n`);
    git(old, "commit", "-q", "-am", "fix settings");
    const offline = { cwd: old, env: { ...env, VERDICT_URL: "http://127.0.0.1:9" } };
    const found = (r: { stdout: string }) =>
      JSON.parse(r.stdout).findings.map(
        (f: { file: string; line: number; policy_id: string }) => `${f.file}:${f.line} ${f.policy_id}`,
      );
    for (const r of [
      await cli(["scan", "history", "--json"], old),
      await runCli(["scan", "history", "--json", "--offline"], offline),
    ]) {
      expect(r.stderr).toMatch(/^policies: the secrets category \(--every-policy runs them all\)$/m);
      expect(found(r)).toEqual(["settings.py:2 aws-credentials"]);
    }
    for (const r of [
      await cli(["scan", "history", "--json", "--every-policy"], old),
      await runCli(["scan", "history", "--json", "--offline", "--every-policy"], offline),
    ]) {
      expect(r.stderr).not.toMatch(/^policies: /m);
      expect(found(r)).toEqual(["settings.py:1 debug-mode-enabled", "settings.py:2 aws-credentials"]);
    }
    const both = await cli(["scan", "history", "--every-policy", "--category", "secrets"], old);
    expect({ code: both.code, stderr: both.stderr }).toEqual({
      code: 2,
      stderr: "verdict: --every-policy runs every policy: leave out --policy and --category\n",
    });
  });

  it("scans a range only", async () => {
    const r = await cli(["scan", "history", "--json", `${added}..main`], repo);
    expect(JSON.parse(r.stdout).findings.map((f: { file: string }) => f.file)).toEqual(["db.py"]);
  });

  it("resumes a scan that stopped, with the same findings as a whole run", async () => {
    const big = repository({ "a.js": "export const a = 0;\n" });
    for (let i = 1; i <= 40; i++) {
      write(big, "a.js", `export const a = ${i};\n${i === 30 ? `const k = "${AWS_KEY}";\n` : ""}`);
      git(big, "commit", "-q", "-am", `step ${i}`);
    }
    const state = join(big, ".verdict/history-scan.json");
    const child = spawn(process.execPath, [CLI, "scan", "history", "--slice", "1", "--json"], { cwd: big, env });
    // Stopped (killed) once it has saved some progress, and before it is done.
    await new Promise<void>((resolve, reject) => {
      const poll = setInterval(() => {
        try {
          if (JSON.parse(readFileSync(state, "utf8")).done >= 3) {
            clearInterval(poll);
            child.kill("SIGKILL");
            resolve();
          }
        } catch {
          // not written yet (or being written)
        }
      }, 5);
      child.once("exit", () => {
        clearInterval(poll);
        reject(new Error("the scan finished before it could be stopped"));
      });
    });
    const resumed = await cli(["scan", "history", "--json"], big);
    expect(resumed.stderr).toMatch(/^resuming: \d+ of 41 commits already scanned$/m);
    expect(resumed.code).toBe(1);
    const findings = JSON.parse(resumed.stdout).findings;
    expect(findings.map((f: { file: string; line: number }) => `${f.file}:${f.line}`)).toEqual(["a.js:2"]);
    expect(existsSync(state)).toBe(false);
  });
});

describe("help, version and shell completion", () => {
  it("prints the package's version", async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, "libs/cli/package.json"), "utf8"));
    expect(await runCli(["--version"], { env })).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  it("has --help on every command and subcommand", async () => {
    // Walks the command tree as a user would: each help's "Commands:" section names the next level.
    const seen: string[] = [];
    const visit = async (path: string[]): Promise<void> => {
      const r = await runCli([...path, "--help"], { env });
      expect({ path, code: r.code, usage: r.stdout.split("\n")[0] }).toEqual({
        path,
        code: 0,
        usage: expect.stringMatching(new RegExp(`^Usage: ${["verdict", ...path].join(" ")} `)),
      });
      seen.push(path.join(" "));
      const section = r.stdout.split("\nCommands:\n")[1] ?? "";
      const subcommands = [...section.matchAll(/^ {2}([a-z][a-z-]*)/gm)].map((m) => m[1]!).filter((c) => c !== "help");
      // A level's commands at once: seventy starts of the CLI one after another take most of a minute.
      await Promise.all(subcommands.map((c) => visit([...path, c])));
    };
    await visit([]);
    expect(seen).toEqual(expect.arrayContaining(["evaluate", "baseline create", "evaluations list", "completion"]));
    expect(seen.length).toBeGreaterThan(50);
  });

  it("completes commands, subcommands and options in bash", async () => {
    const complete = async (...words: string[]) => {
      const script = `source <("${process.execPath}" "${CLI}" completion bash)
COMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length - 1}; _verdict
printf '%s\\n' "\${COMPREPLY[@]}"`;
      const r = await runCommand("bash", ["-c", script], { env });
      expect(r.stderr).toBe("");
      return r.stdout.trim().split("\n");
    };
    expect(await complete("verdict", "base")).toEqual(["baseline"]);
    expect(await complete("verdict", "baseline", "create", "--exp")).toEqual(["--expires"]);
    expect(await complete("verdict", "--json", "evaluations", "l")).toEqual(["list"]);
    expect(await complete("verdict", "evaluate", "--base", "main", "--no-b")).toEqual(["--no-baseline"]);
    const r = await runCli(["completion", "fish"], { env });
    expect({ code: r.code, stderr: r.stderr }).toEqual({
      code: 2,
      stderr: "verdict: completion: unsupported shell fish (bash is supported)\n",
    });
  });
});
