// The `verdict` command as a user without a clone gets it: docs/install.md's commands run as
// written. The package is packed in the repository, then installed into an empty HOME with an
// empty npm cache and a PATH holding only Node.js, npm and the system's tools, and the installed
// command evaluates files and scans a history against a running Verdict, and evaluates offline.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, expect, it } from "@jest/globals";
import { expectKeyFound, runCommand } from "../support/cli.js";
import { ROOT } from "../support/paths.js";
import { bash, shellBlocks } from "../support/shell.js";
import { startVerdict, type Verdict } from "../support/server.js";

const AWS_KEY = "AKIAZ7VQ3X4M2N8P5R6T";
const VERSION = (JSON.parse(readFileSync(join(ROOT, "libs/cli/package.json"), "utf8")) as { version: string }).version;

let v: Verdict;
/** The clean machine: its HOME, and the environment every command there runs with. */
let home: string;
let machine: Record<string, string>;

/** How this machine reaches its npm registry: the address, and the certificate authority it trusts. */
function machineNpmConfig(): Record<string, string> {
  // (`npm config get cafile` answers null even when a global npmrc sets it: read the whole list.)
  const config = JSON.parse(execFileSync("npm", ["config", "ls", "--json"], { encoding: "utf8" })) as Record<
    string,
    unknown
  >;
  const out: Record<string, string> = { npm_config_registry: String(config.registry) };
  if (typeof config.cafile === "string") out.npm_config_cafile = config.cafile;
  // A machine whose registry is reached through a TLS proxy trusts its CA this way.
  if (process.env.NODE_EXTRA_CA_CERTS) out.NODE_EXTRA_CA_CERTS = process.env.NODE_EXTRA_CA_CERTS;
  return out;
}

function git(cwd: string, ...args: string[]): void {
  execFileSync("git", args, { cwd, env: { ...machine, GIT_CONFIG_NOSYSTEM: "1" }, stdio: "ignore" });
}

beforeAll(async () => {
  v = await startVerdict();
  home = mkdtempSync(join(tmpdir(), "verdict-clean-home-"));
  // Only Node.js and npm on PATH besides the system's directories (git): no pnpm, no workspace.
  const bin = join(home, ".node-bin");
  mkdirSync(bin);
  symlinkSync(process.execPath, join(bin, "node"));
  const npmCli = execFileSync("bash", ["-c", 'readlink -f "$(command -v npm)"'], { encoding: "utf8" }).trim();
  symlinkSync(npmCli, join(bin, "npm"));
  machine = {
    HOME: home,
    PATH: `${bin}:/usr/bin:/bin`,
    ...machineNpmConfig(),
    npm_config_update_notifier: "false",
    GIT_AUTHOR_NAME: "Ada",
    GIT_AUTHOR_EMAIL: "ada@example.com",
    GIT_COMMITTER_NAME: "Ada",
    GIT_COMMITTER_EMAIL: "ada@example.com",
  };
});
afterAll(async () => v.destroy());

it("installs from the packed tarball on a clean machine and evaluates from there", async () => {
  const [pack, install] = shellBlocks("docs/install.md", "## From the npm package");
  expect(install).toContain(`verdict-cli-${VERSION}.tgz`);

  // In the clone.
  const tarball = bash(pack!, ROOT, { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? home }).trim();
  expect(basename(tarball)).toBe(`verdict-cli-${VERSION}.tgz`);
  const files = execFileSync("tar", ["tzf", tarball], { encoding: "utf8" }).split("\n");
  expect(files).toContain("package/dist/bin.js");
  // No sources, and of dependencies only RE2 with its addon (docs/install.md: why).
  expect(files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))).toEqual([]);
  expect(files.filter((f) => f.includes("node_modules/")).sort()).toEqual([
    "package/node_modules/re2/LICENSE",
    "package/node_modules/re2/build/Release/re2.node",
    "package/node_modules/re2/package.json",
    "package/node_modules/re2/re2.d.ts",
    "package/node_modules/re2/re2.js",
  ]);

  // On the clean machine.
  const downloads = mkdtempSync(join(tmpdir(), "verdict-downloads-"));
  copyFileSync(tarball, join(downloads, basename(tarball)));
  const out = bash(install!, downloads, machine);
  expect(out.trim().split("\n").at(-1)).toBe(VERSION);

  const verdict = join(home, ".local/bin/verdict");
  const env = { ...machine, VERDICT_URL: v.url, VERDICT_API_KEY: v.bootstrapKey };
  const repo = mkdtempSync(join(tmpdir(), "verdict-clean-repo-"));
  git(repo, "init", "-q", "-b", "main");
  writeFileSync(join(repo, "config.js"), `const accessKey = "${AWS_KEY}";\n`);
  git(repo, "add", ".");
  git(repo, "commit", "-q", "-m", "add a key");
  writeFileSync(join(repo, "config.js"), "const accessKey = process.env.AWS_ACCESS_KEY_ID;\n");
  git(repo, "commit", "-q", "-am", "remove the key");

  writeFileSync(join(repo, "new.js"), `export const key = "${AWS_KEY}";\n`);
  await expectKeyFound(verdict, repo, env);

  // The engine itself, from the package (RE2's addon carried in it, ast-grep's from the registry).
  const offline = await runCommand(verdict, ["evaluate", "--offline", "new.js", "--json"], { cwd: repo, env: machine });
  expect(offline.stderr).toMatch(/^offline: policy version \S+ \(the built-in library of verdict /);
  expect(offline.code).toBe(1);
  expect((JSON.parse(offline.stdout) as { violations: object[] }).violations).toEqual([
    expect.objectContaining({ policy_id: "aws-credentials", file: "new.js", line: 1 }),
  ]);

  const history = await runCommand(verdict, ["scan", "history", "--json"], { cwd: repo, env });
  expect(history.code).toBe(1);
  const found = JSON.parse(history.stdout) as { findings: { policy_id: string; file: string; line: number }[] };
  expect(found.findings).toEqual([
    expect.objectContaining({ policy_id: "aws-credentials", file: "config.js", line: 1 }),
  ]);
  // Offline history on the engine's thread, from the package: the key in the commits.
  const offlineHistory = await runCommand(verdict, ["scan", "history", "--offline", "--json"], {
    cwd: repo,
    env: machine,
  });
  expect(offlineHistory.code).toBe(1);
  expect((JSON.parse(offlineHistory.stdout) as typeof found).findings).toEqual(found.findings);

  // An addon that cannot load (what another platform's machine meets: the package carries RE2's
  // for Linux x64): both offline commands say so in one line, exit 2, and the rest still works.
  const addon = join(home, ".local/lib/node_modules/@verdict/cli/node_modules/re2/build/Release/re2.node");
  writeFileSync(addon, "not an ELF object\n");
  const cannot = /^verdict: --offline cannot load the engine here \(linux-x64\): .+\n$/;
  for (const args of [
    ["evaluate", "--offline", "new.js"],
    ["scan", "history", "--offline"],
  ]) {
    const r = await runCommand(verdict, args, { cwd: repo, env: machine });
    expect({
      code: r.code,
      stdout: r.stdout,
      stderr: r.stderr
        .split("\n")
        .filter((l) => !/^(offline|policies): /.test(l))
        .join("\n"),
    }).toEqual({
      code: 2,
      stdout: "",
      stderr: expect.stringMatching(cannot),
    });
  }
  expect((await runCommand(verdict, ["--version"], { cwd: repo, env: machine })).stdout.trim()).toBe(VERSION);
});
