// What the benchmarks that read a directory and compare with ripgrep share: the files of a tree,
// the patterns in ripgrep's dialect, and running ripgrep on one thread (bench:engine, and the
// speed part of bench:detection).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, sep } from "node:path";

const SKIPPED_DIRS = new Set([".git", "node_modules"]);

/** Regular files under `root` in a stable order, until their total reaches `limit` bytes. */
export function readTree(root, limit) {
  const files = [];
  let total = 0;
  const walk = (dir) => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      if (total >= limit) return;
      const full = join(dir, entry.name);
      if (entry.isDirectory() && !SKIPPED_DIRS.has(entry.name)) walk(full);
      else if (entry.isFile()) {
        const content = readFileSync(full);
        files.push({ path: relative(root, full).split(sep).join("/"), content });
        total += content.length;
      }
    }
  };
  walk(root);
  return { files, truncated: total >= limit };
}

/**
 * The pattern in ripgrep's dialect (Rust regex). ripgrep matches line by line: a newline outside
 * a class can only stand at a line's end, so `\n` becomes `$`. RE2's `\b` and `\B` are ASCII
 * word boundaries; Rust's are Unicode ones unless written `(?-u:\b)`, which gives the same
 * semantics (and spares ripgrep a much slower engine on lines with non-ASCII text).
 */
export function toRipgrep(pattern) {
  let out = "";
  let inClass = false;
  let classBody = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      const e = pattern[++i];
      if (!inClass && e === "n") out += "$";
      else if (!inClass && (e === "b" || e === "B")) out += `(?-u:\\${e})`;
      else out += c + e;
    } else if (inClass) {
      if (c === "[" && pattern[i + 1] === ":") {
        // A POSIX class such as [:alpha:] inside a bracket expression.
        const end = pattern.indexOf(":]", i) + 2;
        out += pattern.slice(i, end);
        i = end - 1;
        continue;
      }
      // A `]` right after `[` or `[^` is a literal.
      if (c === "]" && i > classBody) inClass = false;
      out += c;
    } else {
      out += c;
      if (c === "[") {
        inClass = true;
        if (pattern[i + 1] === "^") out += pattern[++i];
        classBody = i + 1;
      }
    }
  }
  return out;
}

/** Whether ripgrep compiles the pattern (exit status 2 is its error). */
export const ripgrepAccepts = (pattern) =>
  spawnSync("rg", ["--no-config", "--regexp", pattern, "--", "/dev/null"]).status !== 2;

export function ripgrepVersion() {
  const res = spawnSync("rg", ["--version"], { encoding: "utf8" });
  return res.status === 0 ? res.stdout.split("\n")[0] : undefined;
}

/** Writes the files under a new temporary directory, for ripgrep to read. */
export function materialize(files) {
  const dir = mkdtempSync(join(tmpdir(), "verdict-bench-corpus-"));
  for (const { path, content } of files) {
    const full = join(dir, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
  return dir;
}

/** Runs ripgrep over `dir`; returns the number of matching lines when `count` is set. */
export function runRipgrep(patternsFile, dir, count) {
  // The library's few hundred patterns compile past ripgrep's default 100 MB regex size limit;
  // the engine's RE2.Set gets 256 MiB, so ripgrep gets as much (and as much for its lazy DFA).
  const args = [
    "-j1",
    "--no-config",
    "-c",
    "--regex-size-limit",
    "1G",
    "--dfa-size-limit",
    "256M",
    "-f",
    patternsFile,
    "--no-ignore",
    "--hidden",
    "-a",
    dir,
  ];
  const res = spawnSync("rg", args, {
    stdio: ["ignore", count ? "pipe" : "ignore", "pipe"],
    encoding: "utf8",
    maxBuffer: 1 << 30,
  });
  if (res.status === 2 || res.error) throw new Error(`ripgrep failed: ${res.error?.message ?? res.stderr}`);
  if (!count) return undefined;
  return res.stdout.split("\n").reduce((n, line) => n + (Number(line.slice(line.lastIndexOf(":") + 1)) || 0), 0);
}
