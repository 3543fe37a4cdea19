// The `verdict` command, black-box: the real binary against a running Verdict. What a user or a
// CI job sees: findings lines, exit codes, SARIF, tables and JSON, colours on a terminal only,
// one-line errors, a stored login with private permissions, and never the API key.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { VerdictClient } from "@verdict/sdk";
import { CLI, isolatedHome, runCli, runCommand, type CliResult } from "../support/cli.js";
import { makeKey } from "../support/keys.js";
import { sarifErrors } from "../support/sarif.js";
import { startVerdict, type Verdict } from "../support/server.js";

const AWS_KEY = "AKIAZ7VQ3X4M2N8P5R6T";
// A GitHub token of the real shape: 30 random characters and their base62 CRC-32 (Verdict checks it).
const GH_TOKEN = "ghp_" + "R8tY2uV5wX7zA1bC3dE5fG7hJ9kL2m3WTn7r";
// eslint-disable-next-line no-control-regex -- ANSI escape sequences are what the test looks for
const ANSI = /\x1b\[[0-9;]*m/;
const plain = (s: string) => s.replace(new RegExp(ANSI.source, "g"), "");

let v: Verdict;
let sdk: VerdictClient;
let env: Record<string, string>;
let work: string;

const cli = (args: string[], extra: { env?: Record<string, string | undefined>; cwd?: string; input?: string } = {}) =>
  runCli(args, { cwd: extra.cwd ?? work, input: extra.input, env: { ...env, ...extra.env } });

function expectOneLineError(r: CliResult, pattern: RegExp): void {
  expect({ code: r.code, stderr: r.stderr.trimEnd() }).toEqual({ code: 2, stderr: expect.stringMatching(pattern) });
  expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

function git(cwd: string, ...args: string[]): void {
  execFileSync("git", args, {
    cwd,
    stdio: "ignore",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@example.com",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@example.com",
    },
  });
}

function write(root: string, path: string, content: string): void {
  mkdirSync(join(root, path, ".."), { recursive: true });
  writeFileSync(join(root, path), content);
}

beforeAll(async () => {
  // Evaluations of 20 files and more are queued (202, pending): the CLI must wait for them.
  v = await startVerdict({ env: { VERDICT_ASYNC_MIN_FILES: "20" } });
  sdk = new VerdictClient({ baseUrl: v.url, apiKey: v.bootstrapKey });
  env = { ...isolatedHome(), VERDICT_URL: v.url, VERDICT_API_KEY: v.bootstrapKey };
  work = mkdtempSync(join(tmpdir(), "verdict-cli-work-"));
  write(work, "src/config.js", `const region = "eu-west-1";\nconst accessKey = "${AWS_KEY}";\n`);
  write(work, "src/clean.js", "export const answer = 42;\n");
});
afterAll(async () => v.destroy());

describe("verdict evaluate", () => {
  it("prints each finding as file:line:col severity policy message with the redacted snippet, and exits 1", async () => {
    const r = await cli([
      "evaluate",
      "src/config.js",
      "src/clean.js",
      "--repository",
      "acme/payments",
      "--ref",
      "feature/x",
    ]);
    expect(r.code).toBe(1);
    const lines = r.stdout.split("\n");
    const i = lines.findIndex((l) => l.startsWith("src/config.js:2:20 error aws-credentials "));
    expect(i).toBeGreaterThanOrEqual(0);
    expect(lines[i]).toContain("AWS access key");
    expect(lines[i + 1]).toMatch(/^\s+const accessKey = "AKIA\*+";$/);
    expect(r.stdout).not.toContain(AWS_KEY);
    expect(r.stdout).toMatch(/failed: 1 error, 0 warnings in 2 files/);
    expect(r.stdout).not.toMatch(ANSI);
  });

  it("exits 0 when the files pass", async () => {
    const r = await cli(["evaluate", "src/clean.js", "--repository", "acme/payments"]);
    expect(r).toMatchObject({ code: 0 });
    expect(r.stdout).toMatch(/^passed: 0 errors, 0 warnings in 1 file/m);
  });

  it("with --base sends the files changed since REF: untracked ones too, never ignored or deleted ones", async () => {
    const repo = mkdtempSync(join(tmpdir(), "verdict-cli-git-"));
    git(repo, "init", "-q", "-b", "main");
    git(repo, "remote", "add", "origin", "git@github.com:acme/widgets.git");
    write(repo, ".gitignore", "secrets/\n");
    write(repo, "app/settings.js", "export const debug = false;\n");
    write(repo, "app/old.js", `const legacy = "${AWS_KEY}";\n`);
    write(repo, "app/untouched.js", `const t = "${GH_TOKEN}";\n`);
    git(repo, "add", ".");
    git(repo, "commit", "-q", "-m", "base");
    write(repo, "app/settings.js", `export const debug = false;\nexport const token = "${GH_TOKEN}";\n`); // modified
    unlinkSync(join(repo, "app/old.js")); // deleted: not sent
    write(repo, "app/new.js", `const k = "${AWS_KEY}";\n`); // untracked: sent
    write(repo, "secrets/local.js", `const k = "${AWS_KEY}";\n`); // ignored: not sent
    const r = await cli(["evaluate", "--base", "main", "--format", "json"], { cwd: join(repo, "app") });
    expect(r.code).toBe(1);
    const e = JSON.parse(r.stdout);
    expect(e).toMatchObject({ repository: "acme/widgets", ref: "main", base_ref: "main", passed: false });
    expect(e.summary.total_files).toBe(2);
    expect(new Set(e.violations.map((x: { file: string }) => x.file))).toEqual(
      new Set(["app/settings.js", "app/new.js"]),
    );

    // Paths narrow the change; an unknown ref is a usage error.
    const narrowed = JSON.parse(
      (await cli(["evaluate", "--base", "main", "--format", "json", "new.js"], { cwd: join(repo, "app") })).stdout,
    );
    expect(narrowed.violations.map((x: { file: string }) => x.file)).toEqual(["app/new.js"]);
    expectOneLineError(
      await cli(["evaluate", "--base", "no-such-ref"], { cwd: repo }),
      /^verdict: unknown git ref: no-such-ref$/,
    );
  });

  it("waits for a queued evaluation of a large change", async () => {
    for (let i = 0; i < 24; i++)
      write(
        work,
        `many/f${String(i).padStart(2, "0")}.js`,
        i === 17 ? `const k = "${AWS_KEY}";\n` : `export const n = ${i};\n`,
      );
    const r = await cli(["evaluate", "many", "--format", "json"]);
    expect(r.stderr).toMatch(/^queued eval_\S+ \(24 files\); waiting for the result/m);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({
      status: "completed",
      passed: false,
      summary: { total_files: 24, errors: 1 },
      violations: [expect.objectContaining({ file: "many/f17.js" })],
    });
  });

  it("does not fail the build when the organization does not require a passing evaluation", async () => {
    const off = await cli(["organization", "update", "--require-evaluation-pass", "false"]);
    expect(off.code).toBe(0);
    try {
      const r = await cli(["evaluate", "src/config.js", "--repository", "acme/payments"]);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain("failed (not blocking");
      expect(r.stdout).toContain("src/config.js:2:20 error aws-credentials");
    } finally {
      expect((await cli(["organization", "update", "--require-evaluation-pass", "true"])).code).toBe(0);
    }
  });

  it("writes SARIF 2.1.0 that GitHub code scanning accepts: rules with help, located results, fingerprints", async () => {
    const r = await cli(["evaluate", "src", "--format", "sarif", "--repository", "acme/payments"]);
    expect(r.code).toBe(1);
    const sarif = JSON.parse(r.stdout);
    expect(sarifErrors(sarif)).toBeNull();
    expect(sarif).toMatchObject({ version: "2.1.0", $schema: expect.stringContaining("sarif-2.1.0") });
    const run = sarif.runs[0];
    expect(run.tool.driver.name).toBe("Verdict");
    const rule = run.tool.driver.rules.find((x: { id: string }) => x.id === "aws-credentials");
    expect(rule).toMatchObject({
      name: expect.any(String),
      shortDescription: { text: expect.any(String) },
      help: { text: expect.any(String), markdown: expect.any(String) },
      defaultConfiguration: { level: "error" },
    });
    expect(rule.help.text.length).toBeGreaterThan(20);
    expect(rule.properties["security-severity"]).toBe("8.0");
    const result = run.results.find((x: { ruleId: string }) => x.ruleId === "aws-credentials");
    expect(result).toMatchObject({
      level: "error",
      ruleIndex: run.tool.driver.rules.indexOf(rule),
      message: { text: expect.stringContaining("AWS") },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: "src/config.js", uriBaseId: "%SRCROOT%" },
            region: { startLine: 2, startColumn: 20 },
          },
        },
      ],
      partialFingerprints: { "verdictFingerprint/v1": expect.stringMatching(/^[0-9a-f]{32}$/) },
    });
    expect(r.stdout).not.toContain(AWS_KEY);
    // The same finding keeps its fingerprint when lines move above it.
    write(
      work,
      "moved/config.js",
      `// a new first line\nconst region = "eu-west-1";\nconst accessKey = "${AWS_KEY}";\n`,
    );
    write(work, "src2/config.js", `const region = "eu-west-1";\nconst accessKey = "${AWS_KEY}";\n`);
    const fp = async (dir: string) =>
      JSON.parse((await cli(["evaluate", dir, "--format", "sarif"])).stdout).runs[0].results[0];
    const [a, b] = [await fp("moved"), await fp("src2")];
    expect(a.locations[0].physicalLocation.region.startLine).toBe(3);
    expect(a.partialFingerprints).not.toEqual(result.partialFingerprints); // another file
    expect(b.partialFingerprints).not.toEqual(a.partialFingerprints);
  });
});

describe("verdict evaluate on a change larger than one request", () => {
  // 1,250 files: seven batches of at most 199 (queued on this server, which queues 20 files and
  // more), with findings planted in the first, fourth and seventh.
  const FILES = 1250;
  const planted: Record<number, string> = {
    5: `const k = "${AWS_KEY}";\n`,
    600: `const k = "${AWS_KEY}";\n`,
    1240: `const t = "${GH_TOKEN}";\n`,
  };
  const name = (i: number) => `large/f${String(i).padStart(4, "0")}.js`;
  beforeAll(() => {
    for (let i = 0; i < FILES; i++) write(work, name(i), planted[i] ?? `export const n${i} = ${i};\n`);
  });

  it("sends batches and prints one merged result: every batch's findings, summed counts, one exit code", async () => {
    const r = await cli(["evaluate", "large", "--format", "json", "--repository", "acme/monorepo"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^evaluating 1,250 files \(\S+ MB\) as about 7 evaluations, 4 at a time$/m);
    const e = JSON.parse(r.stdout);
    expect(e).toMatchObject({
      id: null,
      status: "completed",
      passed: false,
      repository: "acme/monorepo",
      summary: { total_files: FILES, total_violations: 3, errors: 3, warnings: 0 },
    });
    expect(e.violations.map((v: { file: string; policy_id: string }) => `${v.file} ${v.policy_id}`)).toEqual([
      `${name(5)} aws-credentials`,
      `${name(600)} aws-credentials`,
      `${name(1240)} source-control-tokens`,
    ]);
    // Seven evaluations, one per batch, each findable by its id; the findings came from three.
    expect(e.evaluations).toHaveLength(7);
    const parts = await Promise.all(e.evaluations.map((id: string) => sdk.getEvaluation(id)));
    expect(parts.map((p) => p.summary.total_files)).toEqual([199, 199, 199, 199, 199, 199, 56]);
    expect(parts.map((p) => p.summary.errors)).toEqual([1, 0, 0, 1, 0, 0, 1]);
    for (let i = 1; i <= 7; i++)
      expect(r.stderr).toMatch(new RegExp(`^batch ${i}: eval_\\S+, files \\d+–\\d+ of 1,250, (passed|failed)$`, "m"));
  });

  it("prints the findings of every batch in text, with the number of evaluations and their ids; SARIF is one run", async () => {
    const r = await cli(["evaluate", "large", "--repository", "acme/monorepo", "--concurrency", "2"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/2 at a time$/m);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines.filter((l) => /^large\/f\d+\.js:1:\d+ error /.test(l)).map((l) => l.split(":")[0])).toEqual([
      name(5),
      name(600),
      name(1240),
    ]);
    expect(lines.at(-2)).toBe("failed: 3 errors, 0 warnings in 1250 files (7 evaluations)");
    expect(lines.at(-1)).toMatch(/^evaluations: (eval_\S+ ){6}eval_\S+$/);

    const sarif = JSON.parse(
      (await cli(["evaluate", "large", "--format", "sarif", "--repository", "acme/monorepo"])).stdout,
    );
    expect(sarifErrors(sarif)).toBeNull();
    expect(sarif.runs).toHaveLength(1);
    expect(
      sarif.runs[0].results.map(
        (x: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }) =>
          x.locations[0]!.physicalLocation.artifactLocation.uri,
      ),
    ).toEqual([name(5), name(600), name(1240)]);
    expect(sarif.runs[0].properties).toMatchObject({
      evaluation: null,
      passed: false,
      evaluations: expect.arrayContaining([expect.stringMatching(/^eval_/)]),
    });
    expect(sarif.runs[0].properties.evaluations).toHaveLength(7);
  });

  it("rejects a concurrency that is not a positive integer before any call", async () => {
    expectOneLineError(
      await cli(["evaluate", "large", "--concurrency", "0"]),
      /^verdict: option '--concurrency <n>' argument '0' is invalid\. must be a positive integer/,
    );
  });

  it("completes within a low rate limit, waiting for Retry-After on a 429", async () => {
    // An organization allowed 3 evaluations a minute, whose 3 are already spent: the first batch
    // is answered 429 and retried after Retry-After, then the three batches fit in the new window.
    const created = await sdk.createOrganization({
      name: `cli rate ${Date.now()}`,
      rate_limits: { evaluations_create_per_minute: 3 },
    });
    const key = created.api_key.key;
    const org = new VerdictClient({ baseUrl: v.url, apiKey: key });
    for (let i = 0; i < 3; i++)
      await org.createEvaluation({
        repository: "acme/x",
        ref: "main",
        files: [{ path: "a.js", content: "let a = 1;\n" }],
      });
    for (let i = 0; i < 400; i++)
      write(work, `rated/f${String(i).padStart(4, "0")}.js`, planted[i] ?? `export const n${i} = ${i};\n`);
    const r = await cli(["evaluate", "rated", "--format", "json", "--repository", "acme/monorepo"], {
      env: { VERDICT_API_KEY: key },
    });
    expect(r.stderr).toMatch(/^POST \/v1\/evaluations: rate limited \(HTTP 429\); retrying in \d+ s$/m);
    expect(r.code).toBe(1);
    const e = JSON.parse(r.stdout);
    expect(e.evaluations).toHaveLength(3);
    expect(e.summary).toMatchObject({ total_files: 400, errors: 1 });
    expect(e.violations.map((x: { file: string }) => x.file)).toEqual(["rated/f0005.js"]);
  }, 150_000);

  it("fails the run with a clear message, and no result, when the server goes away mid-way", async () => {
    const dying = await startVerdict({ env: { VERDICT_ASYNC_MIN_FILES: "20" } });
    try {
      const child = spawn(
        process.execPath,
        [CLI, "evaluate", "large", "--concurrency", "1", "--repository", "acme/monorepo"],
        {
          cwd: work,
          env: { ...env, PATH: process.env.PATH ?? "", VERDICT_URL: dying.url, VERDICT_API_KEY: dying.bootstrapKey },
        },
      );
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString("utf8")));
      const code = new Promise<number | null>((res) => child.once("close", res));
      // The first batch is done; the second is queued and polled (at least a second): the server dies.
      await new Promise<void>((res) =>
        child.stderr.on("data", (d: Buffer) => {
          stderr += d.toString("utf8");
          if (/^batch 1: /m.test(stderr)) res();
        }),
      );
      dying.proc.kill("SIGKILL");
      expect(await code).toBe(2);
      const first = /^batch 1: (eval_\S+),/m.exec(stderr)![1]!;
      const last = stderr.trimEnd().split("\n").at(-1)!;
      expect(last).toMatch(
        new RegExp(
          `^verdict: batch 2 \\(files 200–398 of 1,250\\) failed: cannot reach Verdict at ${dying.url}: \\S+; no result for the change \\(1 evaluation completed before it stopped: ${first}\\)$`,
        ),
      );
      expect(stdout).toBe("");
    } finally {
      await dying.destroy();
    }
  });
});

describe("errors: one line, exit 2, never the key", () => {
  it("says how to configure when there is no key", async () => {
    expectOneLineError(
      await cli(["policies", "list"], { env: { VERDICT_API_KEY: undefined } }),
      /^verdict: no API key: set VERDICT_API_KEY or run 'verdict login'$/,
    );
  });

  it("reports a rejected key without printing it", async () => {
    const bad = makeKey();
    const r = await cli(["evaluate", "src/clean.js"], { env: { VERDICT_API_KEY: bad } });
    expectOneLineError(r, /^verdict: authentication failed: .*AUTH_INVALID_KEY/);
    expect(r.stdout + r.stderr).not.toContain(bad);
  });

  it("reports an unreachable server", async () => {
    const port = await new Promise<number>((res) => {
      const s = createServer().listen(0, "127.0.0.1", () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => res(p));
      });
    });
    expectOneLineError(
      await cli(["evaluate", "src/clean.js"], { env: { VERDICT_URL: `http://127.0.0.1:${port}` } }),
      new RegExp(`^verdict: cannot reach Verdict at http://127.0.0.1:${port}: ECONNREFUSED`),
    );
  });

  it("treats unknown commands, options and missing arguments as usage errors", async () => {
    expectOneLineError(await cli(["evaluate", "--bogus"]), /^verdict: unknown option '--bogus'/);
    expectOneLineError(
      await cli(["evaluate"]),
      /^verdict: nothing to evaluate: give PATHS, --base REF \(e\.g\. verdict evaluate --base origin\/main\) or --staged$/,
    );
    expectOneLineError(await cli(["policies", "get"]), /^verdict: missing required argument 'policy_id'/);
    expectOneLineError(
      await cli(["evaluate", "src", "--format", "xml"]),
      /^verdict: --format must be text, json or sarif/,
    );
    const group = await cli(["policies"]); // a group without its subcommand: its help, as a usage error
    expect(group.code).toBe(2);
    expect(group.stderr).toMatch(/^Usage: verdict policies \[options\] \[command\]/);
    expect(group.stdout).toBe("");
  });

  it("names the API's answer for a missing resource", async () => {
    expectOneLineError(
      await cli(["evaluations", "get", "eval_01jd0000000000000000000000"]),
      /RESOURCE_NOT_FOUND.*request req_/,
    );
  });
});

describe("verdict login", () => {
  it("checks the key, stores it with 0600 permissions, and later commands use it", async () => {
    const home = isolatedHome();
    const noEnv = { ...home, VERDICT_URL: undefined, VERDICT_API_KEY: undefined };
    const r = await cli(["login", "--url", `${v.url}/v1`, "--api-key-stdin"], {
      env: noEnv,
      input: `${v.bootstrapKey}\n`,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^logged in to http:\/\/127\.0\.0\.1:\d+ as key key_/);
    expect(r.stdout + r.stderr).not.toContain(v.bootstrapKey);
    const file = join(home.XDG_CONFIG_HOME, "verdict", "config.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const verify = await cli(["verify", "--json"], { env: noEnv });
    expect(verify.code).toBe(0);
    expect(JSON.parse(verify.stdout)).toMatchObject({
      valid: true,
      url: v.url,
      key_id: expect.stringMatching(/^key_/),
      scopes: ["admin"],
    });
    expect(verify.stdout).not.toContain(v.bootstrapKey);

    expect((await cli(["logout"], { env: noEnv })).code).toBe(0);
    expect(existsSync(file)).toBe(false);
  });

  it("refuses a wrong key and stores nothing", async () => {
    const home = isolatedHome();
    const r = await cli(["login", "--url", v.url, "--api-key-stdin"], {
      env: { ...home, VERDICT_API_KEY: undefined },
      input: makeKey(),
    });
    expectOneLineError(r, /authentication failed/);
    expect(existsSync(join(home.XDG_CONFIG_HOME, "verdict", "config.json"))).toBe(false);
  });
});

describe("resource commands", () => {
  it("lists, shows and deletes evaluations, following pagination cursors", async () => {
    for (let i = 0; i < 3; i++)
      await sdk.createEvaluation({
        repository: "acme/paged",
        ref: "main",
        files: [{ path: "a.txt", content: `n${i}` }],
      });
    const list = await cli(["evaluations", "list", "--repository", "acme/paged", "--json"]);
    expect(list.code).toBe(0);
    const ids = JSON.parse(list.stdout).evaluations.map((e: { id: string }) => e.id);
    expect(ids).toHaveLength(3);
    // --limit 2 stops early; the SDK's iterator walks the cursor across pages of 1.
    const seen: string[] = [];
    for await (const e of sdk.evaluations({ repository: "acme/paged", limit: 1 })) seen.push(e.id);
    expect(seen).toEqual(ids);
    expect(
      JSON.parse((await cli(["evaluations", "list", "--repository", "acme/paged", "--limit", "2", "--json"])).stdout)
        .evaluations,
    ).toHaveLength(2);

    const table = await cli(["evaluations", "list", "--repository", "acme/paged"]);
    expect(table.stdout.split("\n")[0]).toMatch(/^ID\s+REPOSITORY\s+REF\s+STATUS\s+RESULT/);
    expect(table.stdout).toContain(ids[0]);

    const get = await cli(["evaluations", "get", ids[0]]);
    expect(get.stdout).toMatch(/passed: 0 errors/);
    expect((await cli(["evaluations", "delete", ids[0]])).stdout).toBe(`deleted ${ids[0]}\n`);
    expect((await cli(["evaluations", "get", ids[0]])).code).toBe(2);
  });

  it("creates a policy from YAML, toggles it, shows it and deletes it", async () => {
    write(
      work,
      "policy.yaml",
      [
        "id: no-internal-hosts",
        "name: No internal host names",
        "severity: warning",
        "patterns:",
        "  - type: regex",
        '    value: "\\\\b[a-z0-9-]+\\\\.corp\\\\.acme\\\\.net\\\\b"',
        "    message: Internal host name",
        "",
      ].join("\n"),
    );
    const created = await cli(["policies", "create", "policy.yaml"]);
    expect(created).toMatchObject({ code: 0, stdout: "created no-internal-hosts (1 pattern, warning)\n" });
    write(work, "hosts.txt", "db = build01.corp.acme.net\n");
    const found = await cli(["evaluate", "hosts.txt"]);
    expect(found.code).toBe(0); // warnings do not fail
    expect(found.stdout).toContain("hosts.txt:1:6 warning no-internal-hosts Internal host name");

    expect((await cli(["policies", "disable", "no-internal-hosts"])).stdout).toBe("no-internal-hosts disabled\n");
    const list = JSON.parse((await cli(["policies", "list", "--category", "custom", "--json"])).stdout);
    expect(list.policies).toEqual([expect.objectContaining({ id: "no-internal-hosts", enabled: false })]);
    expect((await cli(["policies", "enable", "no-internal-hosts"])).code).toBe(0);
    const shown = await cli(["policies", "get", "no-internal-hosts"]);
    expect(shown.stdout).toMatch(/^enabled\s+true$/m);
    expect((await cli(["policies", "delete", "no-internal-hosts"])).code).toBe(0);

    write(
      work,
      "bad.json",
      JSON.stringify({
        id: "bad",
        name: "Bad",
        severity: "error",
        patterns: [{ type: "regex", value: "(?<=x)y", message: "m" }],
      }),
    );
    expectOneLineError(await cli(["policies", "create", "bad.json"]), /patterns\[0\]\.value/);
  });

  it("connects and disconnects repositories, shows the organization, lists and revokes keys", async () => {
    const repo = JSON.parse((await cli(["repositories", "connect", "acme/cli-repo", "--json"])).stdout);
    expect(repo).toMatchObject({ id: expect.stringMatching(/^repo_/), name: "acme/cli-repo", provider: "github" });
    expect((await cli(["repositories", "list"])).stdout).toMatch(new RegExp(`${repo.id}\\s+acme/cli-repo\\s+github`));
    expect((await cli(["repositories", "disconnect", repo.id])).code).toBe(0);

    const org = await cli(["organization"]);
    expect(org.stdout).toMatch(/^id\s+org_/m);
    expect(org.stdout).toMatch(/^require_evaluation_pass\s+true$/m);

    const created = await sdk.createApiKey({ name: "ci", scopes: ["read:evaluations"], expiration: "7d" });
    const keys = await cli(["keys", "list"]);
    expect(keys.stdout).toMatch(new RegExp(`${created.id}\\s+ci\\s+`));
    expect(keys.stdout).not.toContain(created.key);
    expect((await cli(["keys", "revoke", created.id])).stdout).toBe(`revoked ${created.id}\n`);
    expect(
      JSON.parse((await cli(["keys", "list", "--json"])).stdout).api_keys.find(
        (k: { id: string }) => k.id === created.id,
      ).status,
    ).toBe("revoked");
  });

  it("manages webhooks", async () => {
    const created = await cli([
      "webhooks",
      "create",
      "--url",
      "https://ci.example.com/hooks/verdict",
      "--event",
      "evaluation.completed",
    ]);
    expect(created.code).toBe(0);
    const id = /created (wh_\S+)/.exec(created.stdout)![1]!;
    expect(created.stdout).toMatch(/signing secret \(shown once, store it now\): whsec_/);
    expect((await cli(["webhooks", "list"])).stdout).toMatch(
      new RegExp(`${id}\\s+https://ci.example.com/hooks/verdict\\s+evaluation.completed\\s+active`),
    );
    expect((await cli(["webhooks", "disable", id])).stdout).toBe(`${id} disabled\n`);
    expect((await cli(["webhooks", "delete", id])).code).toBe(0);
    expect(JSON.parse((await cli(["webhooks", "list", "--json"])).stdout).webhooks).toEqual([]);
  });

  it("shows compliance coverage and a framework's controls", async () => {
    const overview = await cli(["compliance", "overview"]);
    expect(overview.stdout).toMatch(/^nist-ssdf\s+NIST Secure Software Development Framework.*\s\d+%\s/m);
    const f = JSON.parse((await cli(["compliance", "framework", "soc2", "--json"])).stdout);
    expect(f.framework.id).toBe("soc2");
    const gaps = await cli(["compliance", "framework", "soc2", "--uncovered"]);
    expect(gaps.stdout.split("\n")[0]).toMatch(/^SOC 2 .*% covered$/);
    expectOneLineError(await cli(["compliance", "framework", "no-such"]), /RESOURCE_NOT_FOUND/);
  });

  it("generates a report, waits showing progress, and saves the file", async () => {
    const r = await cli([
      "reports",
      "generate",
      "--framework",
      "soc2",
      "--format",
      "pdf",
      "--range",
      "7d",
      "--out",
      "soc2.pdf",
      "--json",
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/report report_\S+: (generating|completed)/);
    expect(r.stderr).toMatch(/saved \d+ bytes to soc2\.pdf/);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({
      status: "completed",
      format: "pdf",
      frameworks: ["soc2"],
      download_url: expect.stringContaining("/download?"),
    });
    expect(readFileSync(join(work, "soc2.pdf")).subarray(0, 5).toString()).toBe("%PDF-");
  });
});

describe("colours", () => {
  // `script` (util-linux) runs the command on a pseudo-terminal, as in an interactive shell.
  const onTty = (args: string, extra: Record<string, string | undefined> = {}) =>
    runCommand("script", ["-q", "-e", "-c", `${process.execPath} ${CLI} ${args}`, "/dev/null"], {
      cwd: work,
      env: { ...env, TERM: "xterm", ...extra },
    });

  it("colours findings and tables on a terminal", async () => {
    const r = await onTty("evaluate src/config.js");
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(ANSI);
    expect(plain(r.stdout)).toContain("src/config.js:2:20 error aws-credentials");
    expect((await onTty("policies list")).stdout).toMatch(ANSI);
  });

  it("never with NO_COLOR, and never when piped", async () => {
    const r = await onTty("evaluate src/config.js", { NO_COLOR: "1" });
    expect(r.stdout).toContain("src/config.js:2:20 error aws-credentials");
    expect(r.stdout).not.toMatch(ANSI);
    expect((await onTty("policies list", { NO_COLOR: "1" })).stdout).not.toMatch(ANSI);
    expect((await cli(["policies", "list"])).stdout).not.toMatch(ANSI);
  });

  it("prompts for the key on a terminal without echoing it", async () => {
    const home = isolatedHome();
    const r = await runCommand(
      "script",
      ["-q", "-e", "-c", `${process.execPath} ${CLI} login --url ${v.url}`, "/dev/null"],
      {
        cwd: work,
        env: { ...home, TERM: "xterm", PATH: process.env.PATH },
        input: `${v.bootstrapKey}\r`,
        inputAfter: "API key for",
      },
    );
    expect(r.stdout).toContain("API key for");
    expect(r.stdout).toMatch(/logged in to/);
    expect(r.stdout).toContain("*".repeat(v.bootstrapKey.length));
    expect(r.stdout).not.toContain(v.bootstrapKey);
    expect(r.code).toBe(0);
    expect(statSync(join(home.XDG_CONFIG_HOME, "verdict", "config.json")).mode & 0o777).toBe(0o600);
  });
});
