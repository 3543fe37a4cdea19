// Real git repositories made by a test: commits by a fixed author, files written with their
// directories, and a new repository with some files committed on main.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const AUTHOR = { name: "Ada", email: "ada@example.com" };

/** git in `cwd`, as Ada; its stdout. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: AUTHOR.name,
      GIT_AUTHOR_EMAIL: AUTHOR.email,
      GIT_COMMITTER_NAME: AUTHOR.name,
      GIT_COMMITTER_EMAIL: AUTHOR.email,
    },
  });
}

export function write(root: string, path: string, content: string | Buffer): void {
  mkdirSync(join(root, path, ".."), { recursive: true });
  writeFileSync(join(root, path), content);
}

/** Writes `files`, commits them all with `message`, and returns the new commit's sha. */
export function commit(repo: string, message: string, files: Record<string, string | Buffer> = {}): string {
  for (const [path, content] of Object.entries(files)) write(repo, path, content);
  git(repo, "add", "-A");
  git(repo, "commit", "-q", "--allow-empty", "-m", message);
  return git(repo, "rev-parse", "HEAD").trim();
}

/** A new git repository with `files` committed on main (origin: acme/`name`). */
export function repository(files: Record<string, string>, name = "old-app"): string {
  const repo = mkdtempSync(join(tmpdir(), "verdict-git-"));
  git(repo, "init", "-q", "-b", "main");
  git(repo, "remote", "add", "origin", `git@github.com:acme/${name}.git`);
  commit(repo, "initial", files);
  return repo;
}
