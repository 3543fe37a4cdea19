// What to evaluate, from git: the files changed between a ref and the working tree (deleted
// files skipped, untracked files included unless .gitignore excludes them), the repository's
// name and the current ref. Only reads; never changes the repository.
import { execFile, execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { CliError } from "./errors.js";

export interface ChangedFile {
  /** Relative to `root`, with forward slashes. */
  path: string;
  status: "added" | "modified";
}

const GIT_OPTIONS = { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 } as const;

function git(root: string, args: string[]): string {
  return execFileSync("git", args, { cwd: root, stdio: ["ignore", "pipe", "pipe"], ...GIT_OPTIONS });
}

/** git's output, without waiting: the commands a change needs run side by side. */
function gitAsync(root: string, args: string[], env?: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile("git", args, { cwd: root, ...(env ? { env } : {}), ...GIT_OPTIONS }, (err, stdout) =>
      err ? reject(err) : resolve(stdout),
    );
    child.stdin?.end();
  });
}

/** The top of the git work tree containing `cwd`, or null outside a repository (or without git). */
export function gitRoot(cwd: string): string | null {
  try {
    return git(cwd, ["rev-parse", "--show-toplevel"]).trim();
  } catch {
    return null;
  }
}

/** gitRoot(), without waiting: git runs beside whatever this process does meanwhile (in `env`, if given). */
export function gitRootAsync(cwd: string, env?: NodeJS.ProcessEnv): Promise<string | null> {
  return gitAsync(cwd, ["rev-parse", "--show-toplevel"], env).then(
    (out) => out.trim(),
    () => null,
  );
}

/** What tells git where a repository is, other than `cwd`: git is asked when one of these is set. */
const DISCOVERY_VARIABLES = [
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_COMMON_DIR",
  "GIT_CEILING_DIRECTORIES",
  "GIT_DISCOVERY_ACROSS_FILESYSTEM",
];

/**
 * The top of the work tree containing `cwd` (gitRootAsync()), found without a git process when
 * git would find it the plain way: the nearest directory from `cwd` up that holds a `.git`
 * directory, none of the variables that change git's discovery set, and no core.worktree in that
 * repository's config. Anything else (a `.git` file of a linked work tree or a submodule, a
 * repository moved by the environment) is asked of git. A git process is a fork of this large
 * process: about 8 ms of a pre-commit hook's run (whose directory is the top).
 */
export function workTreeTop(cwd: string, env: NodeJS.ProcessEnv): Promise<string | null> {
  if (DISCOVERY_VARIABLES.some((name) => env[name] !== undefined)) return gitRootAsync(cwd, env);
  try {
    for (let dir = resolve(cwd); ; dir = dirname(dir)) {
      const dotGit = join(dir, ".git");
      const kind = statSync(dotGit, { throwIfNoEntry: false });
      if (kind?.isDirectory()) {
        // (No config: not a repository git reads the plain way, and git says what it is.)
        const config = readFileSync(join(dotGit, "config"), "utf8");
        const moved = /^\s*worktree\s*=/im.test(config) || existsSync(join(dotGit, "config.worktree"));
        return moved ? gitRootAsync(cwd, env) : Promise.resolve(dir);
      }
      if (kind || dirname(dir) === dir) return gitRootAsync(cwd, env);
    }
  } catch {
    return gitRootAsync(cwd, env); // a directory this user cannot read on the way
  }
}

const toPosix = (p: string) => p.split(sep).join("/");

/** User-given paths as pathspecs for git run in `cwd` (relative to it, with forward slashes). */
export const cwdPathspecs = (cwd: string, paths: string[]): string[] =>
  paths.map((p) => toPosix(relative(cwd, resolve(cwd, p))) || ".");

/** User-given paths (relative to cwd) as pathspecs relative to the root. */
export function pathspecs(root: string, cwd: string, paths: string[]): string[] {
  return paths.map((p) => {
    const rel = relative(root, isAbsolute(p) ? p : resolve(cwd, p));
    if (rel.startsWith("..")) throw new CliError(`${p} is outside the repository at ${root}`);
    return rel === "" ? "." : toPosix(rel);
  });
}

const splitZ = (out: string) => out.split("\0").filter((s) => s !== "");

/**
 * The top of the work tree containing `cwd`, and the files changed between `base` and the working
 * tree there, limited to `paths` (relative to `cwd`) when given; null outside a repository. The
 * top, the change and the untracked files are asked of git side by side, from `cwd` (each git
 * process is a fork of this large process and a wait: none waits for another).
 */
export async function changeSince(
  cwd: string,
  base: string,
  paths: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ root: string; files: ChangedFile[] } | null> {
  // The ref is verified only when a command that reads it fails (one git process fewer to wait
  // for): then an unknown ref is said as such, and any other failure is what it is.
  const commit = `${base}^{commit}`;
  const unknownRef = () => new CliError(`unknown git ref: ${base}`);
  // (No ref starts with "-": git would read it as an option.)
  if (base.startsWith("-")) {
    if (gitRoot(cwd) === null) return null;
    throw unknownRef();
  }
  // Pathspecs relative to cwd, as git reads them there; the paths git answers with are relative
  // to the top (--no-relative, --full-name), whatever the user's diff.relative. Without paths,
  // ls-files lists under cwd only: `:/` is the whole work tree.
  const here = cwdPathspecs(cwd, paths);
  const top = workTreeTop(cwd, env);
  const diff = gitAsync(cwd, [
    "diff",
    "--no-relative",
    "--name-status",
    "-z",
    "--no-renames",
    "--diff-filter=d",
    commit,
    "--",
    ...here,
  ]);
  const others = gitAsync(cwd, [
    "ls-files",
    "-z",
    "--full-name",
    "--others",
    "--exclude-standard",
    "--",
    ...(paths.length ? here : [":/"]),
  ]);
  // Both are awaited below, or their failure is what the checks before them say better.
  diff.catch(() => undefined);
  others.catch(() => undefined);
  const root = await top;
  if (root === null) return null;
  const specs = pathspecs(root, cwd, paths);
  const known = () =>
    gitAsync(root, ["rev-parse", "--verify", "--quiet", commit]).then(
      () => true,
      () => false,
    );
  // A path that is neither in the work tree nor in REF is a typo: evaluating nothing would pass.
  const absent = specs.map((spec, i) => [spec, paths[i]!] as const).filter(([spec]) => !existsSync(join(root, spec)));
  if (absent.length && !(await known())) throw unknownRef();
  for (const [spec, path] of absent)
    if (git(root, ["ls-tree", "-r", "--name-only", base, "--", spec]) === "")
      throw new CliError(`no such file or directory: ${path} (neither in the work tree nor in ${base})`);
  // -z output of --name-status: status, NUL, path, NUL, … (no renames: a rename is delete + add).
  const [changed, untracked] = await Promise.all([
    diff.catch(async (err: unknown) => {
      throw (await known()) ? err : unknownRef();
    }),
    others,
  ]);
  const fields = splitZ(changed);
  const out = new Map<string, ChangedFile>();
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const path = fields[i + 1]!;
    if (existsSync(join(root, path))) out.set(path, { path, status: fields[i] === "A" ? "added" : "modified" });
  }
  for (const path of splitZ(untracked)) out.set(path, { path, status: "added" });
  return { root, files: [...out.values()].sort((a, b) => a.path.localeCompare(b.path)) };
}

const excluded = (name: string) => name === ".git" || name === "node_modules";

/** Appends the regular files under `dir` (not following symbolic links) to `out`, as `prefix` + their path from `dir`. */
function walk(dir: string, prefix: string, out: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (excluded(entry.name)) continue;
    if (entry.isDirectory()) walk(join(dir, entry.name), `${prefix}${entry.name}/`, out);
    else if (entry.isFile()) out.push(prefix + entry.name);
  }
}

/** The files under `paths` (perhaps some no longer there): git's view (tracked and untracked, .gitignore honoured) in a repository, a walk outside one. */
export function listFiles(root: string | null, cwd: string, paths: string[]): { root: string; files: string[] } {
  for (const p of paths) if (!existsSync(resolve(cwd, p))) throw new CliError(`no such file or directory: ${p}`);
  if (root) {
    const specs = pathspecs(root, cwd, paths);
    // Tracked files deleted from the work tree are still listed: sizing them (files.ts) leaves them out.
    const files = splitZ(git(root, ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", ...specs]));
    return { root, files: [...new Set(files)].sort() };
  }
  const files: string[] = [];
  for (const p of paths) {
    const abs = resolve(cwd, p);
    if (statSync(abs).isFile()) {
      files.push(toPosix(relative(cwd, abs)));
      continue;
    }
    // Paths from cwd, built once per entry from their directory's prefix; .git and node_modules
    // (as any part of the path) are neither listed nor walked.
    const base = toPosix(relative(cwd, abs));
    if (base.split("/").some(excluded)) continue;
    walk(abs, base === "" ? "" : `${base}/`, files);
  }
  return { root: cwd, files: [...new Set(files)].sort() };
}

/** owner/repo: GITHUB_REPOSITORY, else the origin remote, else local/<directory>. */
export async function repositoryName(root: string, inGit: boolean, env: NodeJS.ProcessEnv): Promise<string> {
  if (env.GITHUB_REPOSITORY) return env.GITHUB_REPOSITORY;
  if (inGit) {
    try {
      const url = (await gitAsync(root, ["config", "--get", "remote.origin.url"])).trim();
      const m = /[/:]([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+?)(\.git)?\/?$/.exec(url);
      if (m) return `${m[1]}/${m[2]}`;
    } catch {
      // no origin
    }
  }
  return `local/${basename(root).replace(/[^A-Za-z0-9_.-]/g, "-") || "workspace"}`;
}

/** The branch being evaluated: CI's variables, else git's current branch (or commit). */
export async function currentRef(root: string, inGit: boolean, env: NodeJS.ProcessEnv): Promise<string> {
  if (env.GITHUB_HEAD_REF) return env.GITHUB_HEAD_REF;
  if (env.GITHUB_REF_NAME) return env.GITHUB_REF_NAME;
  if (inGit) {
    try {
      const branch = (await gitAsync(root, ["rev-parse", "--abbrev-ref", "HEAD"])).trim();
      if (branch && branch !== "HEAD") return branch;
      return (await gitAsync(root, ["rev-parse", "--short", "HEAD"])).trim();
    } catch {
      // no commit yet
    }
  }
  return "working-tree";
}
