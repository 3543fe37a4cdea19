// From the developer's machine to the push, black-box: the real `verdict` binary and real git
// against a running Verdict. `evaluate --base REF` checks every commit since REF, not only the
// final diff, so a key added in one commit and removed in the next still fails.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { isolatedHome, runCli } from "../support/cli.js";
import { commit, git, repository } from "../support/git.js";
import { startVerdict, type Verdict } from "../support/server.js";

const AWS_KEY = "AKIAZ7VQ3X4M2N8P5R6T";
const OTHER_KEY = "AKIAQ4M7Z2X9V3N8P6RT";
const PASSWORD = "hunter2-but-longer";

let v: Verdict;
let env: Record<string, string>;
const cli = (args: string[], cwd: string) => runCli(args, { cwd, env });

beforeAll(async () => {
  v = await startVerdict();
  env = { ...isolatedHome(), VERDICT_URL: v.url, VERDICT_API_KEY: v.bootstrapKey };
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
});
