// From the developer's machine to the push, black-box: the real `verdict` binary and real git
// against a running Verdict. `evaluate --base REF` checks every commit since REF, not only the
// final diff, so a key added in one commit and removed in the next still fails; the pre-receive
// hook, installed in a bare repository, rejects a real `git push` that brings such a commit, and
// a push bypassed with a reason is recorded as bypass events; the pre-commit framework (PyPI)
// runs .pre-commit-hooks.yaml on a real `git commit`.
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { parse as parseYaml } from "yaml";
import { Api } from "../support/api.js";
import { CLI, isolatedHome, runCli, runCommand } from "../support/cli.js";
import { AUTHOR, commit, git, repository, write } from "../support/git.js";
import { ROOT } from "../support/paths.js";
import { startVerdict, type Verdict } from "../support/server.js";

const AWS_KEY = "AKIAZ7VQ3X4M2N8P5R6T";
const OTHER_KEY = "AKIAQ4M7Z2X9V3N8P6RT";
const PASSWORD = "hunter2-but-longer";
const AUTHOR_ENV = {
  GIT_AUTHOR_NAME: AUTHOR.name,
  GIT_AUTHOR_EMAIL: AUTHOR.email,
  GIT_COMMITTER_NAME: AUTHOR.name,
  GIT_COMMITTER_EMAIL: AUTHOR.email,
};

let v: Verdict;
let env: Record<string, string>;
/** `env` with `verdict` on the PATH, as a git server or a developer's shell has it. */
let pathEnv: Record<string, string>;
const cli = (args: string[], cwd: string) => runCli(args, { cwd, env });

beforeAll(async () => {
  v = await startVerdict();
  env = { ...isolatedHome(), VERDICT_URL: v.url, VERDICT_API_KEY: v.bootstrapKey };
  const bin = mkdtempSync(join(tmpdir(), "verdict-bin-"));
  writeFileSync(join(bin, "verdict"), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`, { mode: 0o755 });
  pathEnv = { ...env, USER: "ada", PATH: `${bin}:${process.env.PATH}` };
});
afterAll(async () => v.destroy());

describe("evaluate --base REF checks the commits since REF", () => {
  let repo: string;
  let added: string;
  let feature: string;
  beforeAll(() => {
    repo = repository({ "app.js": "export const a = 1;\n", "README.md": "# app\n" });
    git(repo, "checkout", "-q", "-b", "feature");
    // A key added in one commit and removed in the next: the final diff has no key.
    added = commit(repo, "add config", { "config.js": `const region = "eu-west-1";\nconst key = "${AWS_KEY}";\n` });
    commit(repo, "remove the key", { "config.js": `const region = "eu-west-1";\nconst key = process.env.KEY;\n` });
    // A binary file with a key in it and a rename: neither adds a text line to check.
    commit(repo, "binary", { "blob.bin": Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from(OTHER_KEY)]) });
    git(repo, "mv", "config.js", "settings.js");
    commit(repo, "rename");
    // main moves on with a key of its own, merged into the branch: main's, not the branch's.
    git(repo, "checkout", "-q", "main");
    commit(repo, "main's key", { "legacy.js": `const old = "${OTHER_KEY}";\n` });
    git(repo, "checkout", "-q", "feature");
    git(repo, "merge", "-q", "--no-ff", "-m", "merge main", "main");
    // A password that stays: the final change reports it, the commits do not report it again.
    feature = commit(repo, "db settings", { "db.py": `DEBUG = False\npassword = "${PASSWORD}"\n` });
  });

  it("fails on a key added in one commit and removed in the next, naming commit, file and line", async () => {
    const r = await cli(["evaluate", "--base", "main", "--json"], repo);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.violations.map((x: { file: string; line: number }) => `${x.file}:${x.line}`)).toEqual(["db.py:2"]);
    expect(out.history.commits).toBe(5); // the branch's own five, not main's, not the merge
    expect(
      out.history.findings.map((f: Record<string, unknown>) => [f.commit, f.author, f.file, f.line, f.policy_id]),
    ).toEqual([[added, "Ada", "config.js", 2, "aws-credentials"]]);
    expect(r.stdout).not.toContain(AWS_KEY);
    expect(r.stdout).not.toContain(PASSWORD);

    const text = await cli(["evaluate", "--base", "main"], repo);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^In the 5 commits since main, no longer in the change:$/m);
    expect(text.stdout).toMatch(
      new RegExp(`^${added.slice(0, 10)} \\d{4}-\\d\\d-\\d\\d Ada config\\.js:2:14 error aws-credentials `, "m"),
    );
    expect(text.stdout).toMatch(/^failed: 1 finding \(1 error\) in the commits since main$/m);
    expect(text.stdout).toMatch(/^db\.py:2:\d+ error hardcoded-credentials /m);

    const sarif = JSON.parse((await cli(["evaluate", "--base", "main", "--format", "sarif"], repo)).stdout);
    expect(sarif.runs[0].results.map((x: { message: { text: string } }) => x.message.text)).toEqual(
      expect.arrayContaining([
        expect.stringContaining(`added in commit ${added.slice(0, 10)}, no longer in the change`),
      ]),
    );
  });

  it("fails when only the commits have a finding (the final diff is empty), keeps to PATHS, and passes a clean range", async () => {
    git(repo, "checkout", "-q", "-b", "oops", "main");
    const oops = commit(repo, "oops", { "app.js": `export const a = 1;\nconst k = "${AWS_KEY}";\n` });
    commit(repo, "revert", { "app.js": "export const a = 1;\n" });
    const r = await cli(["evaluate", "--base", "main", "--json"], repo);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({
      evaluation: null,
      history: { commits: 2, findings: [{ commit: oops, file: "app.js", line: 2, policy_id: "aws-credentials" }] },
    });
    const text = await cli(["evaluate", "--base", "main"], repo);
    expect(text.stdout).toMatch(/^In the 2 commits since main, no longer in the change:\n.* app\.js:2:\d+ error /m);
    // Only the commits' lines in PATHS.
    const elsewhere = await cli(["evaluate", "--base", "main", "--json", "README.md"], repo);
    expect({ code: elsewhere.code, out: JSON.parse(elsewhere.stdout) }).toEqual({
      code: 0,
      out: { evaluation: null, history: { commits: 0, findings: [] } },
    });
    git(repo, "checkout", "-q", "feature");

    const clean = await cli(["evaluate", "--base", feature, "--json"], repo);
    expect(clean.code).toBe(0);
    expect(JSON.parse(clean.stdout)).toEqual({ evaluation: null, history: { commits: 0, findings: [] } });
    // Since the key's commit: the key's removal and later; main's key and the password are in the final change.
    const later = await cli(["evaluate", "--base", added, "--json"], repo);
    expect(later.code).toBe(1);
    const out = JSON.parse(later.stdout);
    expect(out.violations.map((x: { file: string }) => x.file)).toEqual(["db.py", "legacy.js"]);
    expect(out.history.findings).toEqual([]);
  });

  it("checks the commits since REF offline too, finding for finding as the server, with no network call", async () => {
    const online = JSON.parse((await cli(["evaluate", "--base", "main", "--json"], repo)).stdout);
    // Nothing listens on port 9: a request would fail the command.
    const offline = { cwd: repo, env: { ...env, VERDICT_URL: "http://127.0.0.1:9" } };
    const r = await runCli(["evaluate", "--offline", "--base", "main", "--json"], offline);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.violations.map((x: { file: string; line: number }) => `${x.file}:${x.line}`)).toEqual(["db.py:2"]);
    expect(out.history).toEqual(online.history);
    expect(out.history.findings.map((f: { commit: string }) => f.commit)).toEqual([added]);
    expect(r.stdout).not.toContain(AWS_KEY);
    const text = await runCli(["evaluate", "--offline", "--base", "main"], offline);
    expect(text.stdout).toMatch(/^In the 5 commits since main, no longer in the change:$/m);
    expect(text.stdout).toMatch(/^failed: 1 finding \(1 error\) in the commits since main$/m);
    // A pre-commit hook's --base HEAD: no commit in between, the staged change alone.
    const head = await runCli(["evaluate", "--offline", "--base", "HEAD", "--json"], offline);
    expect(JSON.parse(head.stdout).history).toEqual({ commits: 0, findings: [] });
  });
});

describe("push protection: the pre-receive hook in a bare repository", () => {
  let server: string;
  let work: string;
  let pushEnv: Record<string, string>;
  const push = (...args: string[]) => runCommand("git", ["push", ...args], { cwd: work, env: pushEnv });
  const serverHas = (ref: string) => {
    try {
      return git(server, "rev-parse", "--verify", "--quiet", ref).trim();
    } catch {
      return null;
    }
  };

  beforeAll(() => {
    // The server: a bare repository with the hook installed as docs/push-protection.md says.
    server = join(mkdtempSync(join(tmpdir(), "verdict-server-")), "app.git");
    git(tmpdir(), "init", "-q", "--bare", "-b", "main", server);
    git(server, "config", "receive.advertisePushOptions", "true");
    copyFileSync(join(ROOT, "libs/cli/hooks/pre-receive"), join(server, "hooks/pre-receive"));
    pushEnv = { ...pathEnv, VERDICT_HOOK_ENV: "/nonexistent" };
    work = repository({ "app.js": "export const a = 1;\n" });
    git(work, "remote", "add", "server", server);
  });

  it("accepts a clean push, and rejects one that adds a key in one commit and removes it in the next", async () => {
    const clean = await push("server", "main");
    expect(clean.code).toBe(0);
    expect(clean.stderr).toMatch(/^remote: verdict: 1 commit checked, no blocking finding/m);

    git(work, "checkout", "-q", "-b", "feature");
    const added = commit(work, "add config", {
      "config.js": `const region = "eu-west-1";\nconst key = "${AWS_KEY}";\n`,
    });
    commit(work, "remove the key", { "config.js": `const region = "eu-west-1";\nconst key = process.env.KEY;\n` });
    const r = await push("server", "feature");
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^remote: verdict: push rejected: 1 blocking finding in the commits pushed/m);
    expect(r.stderr).toMatch(
      new RegExp(
        `^remote: ${added.slice(0, 10)} \\d{4}-\\d\\d-\\d\\d Ada config\\.js:2:14 error aws-credentials `,
        "m",
      ),
    );
    expect(r.stderr).toMatch(
      /^remote: To push anyway, give a reason; .*git push -o verdict-bypass="why this is safe"/m,
    );
    expect(r.stderr).toMatch(/\[remote rejected\] feature -> feature \(pre-receive hook declined\)/);
    expect(r.stderr).not.toContain(AWS_KEY);
    expect(serverHas("feature")).toBeNull();
  });

  it("accepts the branch once its commits are fixed, and rejects a force-push that brings a key back", async () => {
    git(work, "reset", "-q", "--hard", "main");
    const fixed = commit(work, "add config", { "config.js": `const key = process.env.KEY;\n` });
    const r = await push("server", "feature");
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^remote: verdict: 1 commit checked, no blocking finding/m);
    expect(serverHas("feature")).toBe(fixed);

    // A rewritten tip: its commit is new to the server even though the branch exists.
    commit(work, "a binary file, and a key", {
      "blob.bin": Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from(OTHER_KEY)]),
      "keys.py": `AWS = "${AWS_KEY}"\n`,
    });
    git(work, "commit", "-q", "--amend", "-m", "rewritten");
    const forced = await push("--force", "server", "feature");
    expect(forced.code).toBe(1);
    expect(forced.stderr).toMatch(/^remote: \S+ \S+ Ada keys\.py:1:\d+ error aws-credentials /m);
    expect(forced.stderr).not.toMatch(/blob\.bin/);
    expect(serverHas("feature")).toBe(fixed);
  });

  it("lets a push through with -o verdict-bypass=REASON and records its findings as bypass events", async () => {
    const r = await push("--force", "-o", "verdict-bypass=test fixture, the key is revoked", "server", "feature");
    expect(r.code).toBe(0);
    const id = /recorded as bypass events in (eval_\w+)/.exec(r.stderr)?.[1];
    expect(id).toBeDefined();
    expect(serverHas("feature")).toBe(git(work, "rev-parse", "HEAD").trim());
    const e = await new Api(v.url, v.bootstrapKey).get(`/v1/evaluations/${id}`);
    expect(e.status).toBe(200);
    expect(e.body).toMatchObject({
      repository: "local/app",
      ref: "refs/heads/feature",
      passed: true,
      violations: [],
      summary: { errors: 0, suppressed: 1 },
      suppressions: [
        {
          policy_id: "aws-credentials",
          file: "keys.py",
          line: 1,
          reason: "push of refs/heads/feature by ada: test fixture, the key is revoked",
        },
      ],
    });
  });
});

describe("POST /v1/evaluations with bypass_reason", () => {
  it("records each finding as a suppression with the reason, and refuses an empty reason naming its field", async () => {
    const api = new Api(v.url, v.bootstrapKey);
    const files = [{ path: "a.js", content: `const k = "${AWS_KEY}";\n` }];
    const r = await api.post("/v1/evaluations", { repository: "acme/app", ref: "main", files, bypass_reason: "why" });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      passed: true,
      violations: [],
      suppressions: [{ policy_id: "aws-credentials", file: "a.js", line: 1, reason: "why" }],
    });
    const bad = await api.post("/v1/evaluations", { repository: "acme/app", ref: "main", files, bypass_reason: "" });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: "validation_error", code: "VALIDATION_FAILED" });
    expect(bad.body.details.errors).toEqual([expect.objectContaining({ field: "bypass_reason" })]);
  });
});

describe("the pre-commit framework runs .pre-commit-hooks.yaml", () => {
  const PRE_COMMIT = join(ROOT, ".tools/pre-commit/bin/pre-commit");

  /**
   * A repository whose .pre-commit-config.yaml uses hook `id` of a repository holding the hook
   * definitions (referenced by path and commit, as a user's config references Verdict's
   * repository), with `files` committed and pre-commit installed; and a runner of commands in it.
   */
  async function withHook(id: string, files: Record<string, string>, extraEnv: Record<string, string> = {}) {
    const hooks = repository({ ".pre-commit-hooks.yaml": readFileSync(join(ROOT, ".pre-commit-hooks.yaml"), "utf8") });
    const rev = git(hooks, "rev-parse", "HEAD").trim();
    const repo = repository({
      ".pre-commit-config.yaml": `repos:\n  - repo: ${hooks}\n    rev: ${rev}\n    hooks:\n      - id: ${id}\n`,
      ...files,
    });
    const hookEnv = { ...pathEnv, ...extraEnv, PRE_COMMIT_HOME: join(env.HOME!, "pre-commit"), ...AUTHOR_ENV };
    const run = (cmd: string, ...args: string[]) => runCommand(cmd, args, { cwd: repo, env: hookEnv });
    expect(await run(PRE_COMMIT, "install")).toMatchObject({ code: 0 });
    return { repo, run };
  }

  it("stops a commit that adds a key, commits it once fixed, and skips with SKIP=verdict", async () => {
    const { repo, run } = await withHook("verdict", {});
    write(repo, "config.js", `const region = "eu-west-1";\nconst key = "${AWS_KEY}";\n`);
    write(repo, "logo.png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
    git(repo, "add", ".");
    // git gives a hook's output to stderr.
    const stopped = await run("git", "commit", "-m", "config");
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toMatch(/^Verdict\.+Failed$/m);
    expect(stopped.stderr).toMatch(/^config\.js:2:14 error aws-credentials /m);
    expect(stopped.stderr).not.toContain(AWS_KEY);
    expect(git(repo, "log", "--format=%s")).toBe("initial\n");

    write(repo, "config.js", `const region = "eu-west-1";\nconst key = process.env.KEY;\n`);
    git(repo, "add", ".");
    const made = await run("git", "commit", "-m", "config");
    expect(made.code).toBe(0);
    expect(made.stderr).toMatch(/^Verdict\.+Passed$/m);

    write(repo, "more.js", `const k = "${OTHER_KEY}";\n`);
    git(repo, "add", ".");
    const skipped = await run("bash", "-c", "SKIP=verdict git commit -m more");
    expect(skipped.code).toBe(0);
    expect(skipped.stderr).toMatch(/^Verdict\.+Skipped$/m);
  });

  it("verdict-offline: stops a commit that adds a key with no server to ask, and commits once it is fixed", async () => {
    // A key committed before the hook was installed: not the commit's to answer for. Nothing
    // listens on port 9 and there is no key: a request would fail the hook.
    const { repo, run } = await withHook(
      "verdict-offline",
      { "legacy.js": `const old = "${OTHER_KEY}";\n` },
      { VERDICT_URL: "http://127.0.0.1:9", VERDICT_API_KEY: "" },
    );
    write(repo, "legacy.js", `const old = "${OTHER_KEY}";\nconst region = "eu-west-1";\n`);
    write(repo, "config.js", `const region = "eu-west-1";\nconst key = "${AWS_KEY}";\n`);
    git(repo, "add", ".");
    const stopped = await run("git", "commit", "-m", "config");
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toMatch(/^Verdict \(offline\)\.+Failed$/m);
    expect(stopped.stderr).toMatch(/^config\.js:2:14 error aws-credentials /m);
    expect(stopped.stderr).not.toMatch(/^legacy\.js/m);
    expect(stopped.stderr).not.toContain(AWS_KEY);
    expect(git(repo, "log", "--format=%s")).toBe("initial\n");

    write(repo, "config.js", `const region = "eu-west-1";\nconst key = process.env.KEY;\n`);
    git(repo, "add", ".");
    const made = await run("git", "commit", "-m", "config");
    expect(made.code).toBe(0);
    expect(made.stderr).toMatch(/^Verdict \(offline\)\.+Passed$/m);
  });
});

describe("scan history: unusual paths, SARIF, more than 1,000 findings", () => {
  /** An AWS access key id of the real shape, different for each `i`. */
  const awsKey = (i: number) =>
    "AKIA" + (i * 7919 + 104729).toString(36).toUpperCase().padStart(8, "R2D8") + "Z7VQ3X4M";
  const NAMES = ["my file.js", "tab\there.js", 'quo"te\\d.js', "café.js"];
  let repo: string;
  beforeAll(() => {
    repo = repository({ "app.js": "export const a = 1;\n" });
    commit(repo, "odd names", Object.fromEntries(NAMES.map((n, i) => [n, `const k = "${awsKey(i)}";\n`])));
    const lines = Array.from({ length: 1200 }, (_, i) => `const k${i} = "${awsKey(100 + i)}";`);
    commit(repo, "many keys", { "keys.js": lines.join("\n") + "\n" });
  });

  it("reports files whose names git quotes under their real names, and every one of 1,200 findings", async () => {
    const r = await cli(["scan", "history", "--json"], repo);
    expect(r.code).toBe(1);
    const findings: { file: string; line: number }[] = JSON.parse(r.stdout).findings;
    expect(findings.filter((f) => f.file !== "keys.js").map((f) => f.file)).toEqual([...NAMES].sort());
    const many = findings.filter((f) => f.file === "keys.js").map((f) => f.line);
    expect(many).toEqual(Array.from({ length: 1200 }, (_, i) => i + 1));
    expect(r.stderr).not.toMatch(/kept \d+ of/);
  });

  it("prints SARIF 2.1.0 with a result per finding that names its commit", async () => {
    const r = await cli(["scan", "history", "--format", "sarif"], repo);
    expect(r.code).toBe(1);
    const run = JSON.parse(r.stdout).runs[0];
    expect(run.results).toHaveLength(1204);
    const cafe = run.results.find(
      (x: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }) =>
        x.locations[0]!.physicalLocation.artifactLocation.uri === encodeURI("café.js"),
    );
    expect(cafe.message.text).toMatch(/ \(added in commit [0-9a-f]{10} by Ada on \d{4}-\d\d-\d\d\)\. /);
    expect(run.tool.driver.rules.map((x: { id: string }) => x.id)).toEqual(["aws-credentials"]);
  });
});

describe("CI: the GitHub Action's and the GitLab template's commands", () => {
  // No GitHub runner or GitLab here: these run the shell steps as written, against a real
  // repository whose origin is a bare repository. Not run: actions/setup-node, the CLI's npm
  // install (the packed package's own test covers it), github/codeql-action/upload-sarif.
  let repo: string;
  let added: string;
  beforeAll(() => {
    const origin = join(mkdtempSync(join(tmpdir(), "verdict-origin-")), "app.git");
    git(tmpdir(), "init", "-q", "--bare", "-b", "main", origin);
    repo = repository({ "app.js": "export const a = 1;\n" });
    git(repo, "remote", "set-url", "origin", origin);
    git(repo, "push", "-q", "origin", "main");
    git(repo, "checkout", "-q", "-b", "feature");
    added = commit(repo, "add config", { "config.js": `const key = "${AWS_KEY}";\n` });
    commit(repo, "remove the key", { "config.js": "const key = process.env.KEY;\n" });
  });

  const sarifOf = (path: string) => {
    const run = JSON.parse(readFileSync(path, "utf8")).runs[0];
    return run.results.map((x: { message: { text: string } }) => x.message.text);
  };

  it("action.yml: evaluates the change and its commits into SARIF, sets exit-code, and fails the job", async () => {
    const action = parseYaml(readFileSync(join(ROOT, "action.yml"), "utf8"));
    const steps: { run?: string; env?: Record<string, string>; name?: string }[] = action.runs.steps;
    const inputs: Record<string, string> = {
      url: v.url,
      "api-key": v.bootstrapKey,
      base: "",
      "sarif-file": "out.sarif",
    };
    const output = join(mkdtempSync(join(tmpdir(), "verdict-gh-")), "output");
    writeFileSync(output, "");
    const outputs: Record<string, string> = {};
    const expand = (value: string) =>
      value
        .replace(/\$\{\{ inputs\.([\w-]+) \}\}/g, (_, k: string) => inputs[k] ?? action.inputs[k].default)
        .replace(/\$\{\{ steps\.evaluate\.outputs\.([\w-]+) \}\}/g, (_, k: string) => outputs[k] ?? "");
    const runStep = (name: string) => {
      const step = steps.find((s) => s.name === name)!;
      const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, val]) => [k, expand(val)]));
      return runCommand("bash", ["-e", "-c", step.run!], {
        cwd: repo,
        env: { ...pathEnv, ...stepEnv, GITHUB_BASE_REF: "main", GITHUB_OUTPUT: output },
      });
    };
    const evaluated = await runStep("Evaluate the change and its commits");
    expect(evaluated.code).toBe(0);
    for (const m of readFileSync(output, "utf8").matchAll(/^([\w-]+)=(.*)$/gm)) outputs[m[1]!] = m[2]!;
    expect(outputs["exit-code"]).toBe("1");
    expect(sarifOf(join(repo, "out.sarif"))).toEqual([
      expect.stringContaining(`added in commit ${added.slice(0, 10)}, no longer in the change`),
    ]);
    expect(evaluated.stdout).toMatch(/^In the 2 commits since origin\/main, no longer in the change:$/m);
    expect((await runStep("Fail when the evaluation failed")).code).toBe(1);
  });

  it("ci/verdict.gitlab-ci.yml: the script fetches the target branch, writes SARIF and fails the job", async () => {
    const template = parseYaml(readFileSync(join(ROOT, "ci/verdict.gitlab-ci.yml"), "utf8"));
    const script: string[] = template.verdict.script.filter((l: string) => !l.startsWith("npm install"));
    git(repo, "update-ref", "-d", "refs/remotes/origin/main");
    const r = await runCommand("bash", ["-eo", "pipefail", "-c", script.join("\n")], {
      cwd: repo,
      env: { ...pathEnv, CI_MERGE_REQUEST_TARGET_BRANCH_NAME: "main" },
    });
    expect(r.code).toBe(1);
    expect(template.verdict.artifacts.paths).toEqual(["verdict.sarif"]);
    expect(sarifOf(join(repo, "verdict.sarif"))).toEqual([
      expect.stringContaining(`added in commit ${added.slice(0, 10)}`),
    ]);
  });
});
