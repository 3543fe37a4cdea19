// What `verdict scan history` reads from git: every commit's added lines (git log -p -U0,
// streamed, oldest first), each blob once, and how they go to the API: per path, the added
// lines of the commits of a slice joined into one text (at most 1 MiB; more goes in the next
// round), with a map from its lines back to the commit and line they came from. Reads only.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { MAX_FILE_BYTES } from "./files.js";

export interface Commit {
  sha: string;
  author: string;
  email: string;
  /** ISO 8601, the author date. */
  date: string;
}

/** A commit's added lines in one file. */
export interface Addition {
  commit: number;
  path: string;
  /** [line number in the commit's version of the file, text] */
  lines: [number, string][];
}

export interface CommitSlice {
  commits: Commit[];
  additions: Addition[];
}

/** The commits of `range` (git log revision arguments; merges' own diffs left out), oldest first. */
export function commitList(root: string, range: string[]): Promise<string[]> {
  return lines(root, ["rev-list", "--reverse", "--no-merges", ...range]).then((l) => l.filter(Boolean));
}

function lines(root: string, args: string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    const out: string[] = [];
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    createInterface({ input: child.stdout, crlfDelay: Infinity }).on("line", (l) => out.push(l));
    child.once("error", reject);
    child.once("close", (code) => (code === 0 ? resolve(out) : reject(new Error(err.trim() || `git exited ${code}`))));
  });
}

const COMMIT = "\x01";

const ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, "\\": 92 };

/**
 * The path of a `+++ ` line (after those four characters), or null for /dev/null. Git writes
 * a name with a space followed by a tab, and one with a control character, a quote or a
 * backslash C-quoted ("b/tab\there.js", octal escapes for bytes; core.quotePath=false leaves
 * other non-ASCII bytes as they are).
 */
export function newPath(field: string): string | null {
  let name = field;
  if (name.startsWith('"') && name.endsWith('"')) {
    const bytes: number[] = [];
    const body = name.slice(1, -1);
    for (let i = 0; i < body.length; i++) {
      const ch = body[i]!;
      if (ch !== "\\") {
        bytes.push(...Buffer.from(ch, "utf8"));
        continue;
      }
      const next = body[++i] ?? "";
      if (/[0-7]/.test(next)) {
        bytes.push(parseInt(body.slice(i, i + 3), 8));
        i += 2;
      } else bytes.push(ESCAPES[next] ?? next.charCodeAt(0));
    }
    name = Buffer.from(bytes).toString("utf8");
  } else if (name.endsWith("\t")) name = name.slice(0, -1);
  return name.startsWith("b/") ? name.slice(2) : null;
}

/**
 * The added lines of `shas` (in that order), from one `git log -p` streamed line by line. A blob
 * already seen (in this slice or `seenBlobs`, which it extends) is not read again; binary files
 * and deletions add nothing. With `paths`, only those files' lines.
 */
export async function readSlice(
  root: string,
  shas: string[],
  seenBlobs: Set<string>,
  /** Pathspecs (relative to the root) to keep to; none: every file. */
  paths: string[] = [],
): Promise<CommitSlice> {
  const commits: Commit[] = [];
  const additions: Addition[] = [];
  const output = await lines(root, [
    "-c",
    "core.quotePath=false",
    "log",
    "--no-walk=unsorted",
    "-p",
    "-U0",
    "--no-renames",
    "--full-index",
    "--no-color",
    "--no-ext-diff",
    `--format=${COMMIT}%H%x00%an%x00%ae%x00%aI`,
    ...shas,
    ...(paths.length ? ["--", ...paths] : []),
  ]);
  let current: Addition | undefined;
  let skip = true;
  let inHeader = false;
  let next = 0;
  for (const line of output) {
    if (line.startsWith(COMMIT)) {
      const [sha, author, email, date] = line.slice(1).split("\0") as [string, string, string, string];
      commits.push({ sha, author, email, date });
      current = undefined;
      skip = true;
    } else if (line.startsWith("diff --git ")) {
      current = undefined;
      skip = false;
      inHeader = true;
    } else if (inHeader) {
      if (line.startsWith("index ")) {
        const blob = /^index [0-9a-f]+\.\.([0-9a-f]+)/.exec(line)?.[1];
        if (blob && (seenBlobs.has(blob) || /^0+$/.test(blob))) skip = true;
        else if (blob) seenBlobs.add(blob);
      } else if (line.startsWith("+++ ")) {
        inHeader = false;
        const path = newPath(line.slice(4));
        if (!skip && path !== null) additions.push((current = { commit: commits.length - 1, path, lines: [] }));
      } else if (line.startsWith("Binary files ") || line.startsWith("@@")) {
        inHeader = false; // a binary file, or a mode change without content
        skip = true;
      }
    } else if (current && !skip) {
      if (line.startsWith("@@")) next = Number(/\+(\d+)/.exec(line)?.[1] ?? 0);
      else if (line.startsWith("+")) current.lines.push([next++, line.slice(1)]);
    }
  }
  return { commits, additions: additions.filter((a) => a.lines.length > 0) };
}

/** One text sent as a file: where each of its lines came from. */
export interface Composed {
  path: string;
  content: Buffer;
  origin: { addition: number; line: number }[];
}

/**
 * The slice's additions as texts to send, in rounds: a round has at most one text per path (the
 * API's findings name files by path), each at most 1 MiB; a path with more goes on in the next
 * round. A single line longer than 1 MiB is cut.
 */
export function composeRounds(additions: Addition[]): Composed[][] {
  const rounds: Composed[][] = [];
  const byPath = new Map<string, number[]>();
  additions.forEach((a, i) => byPath.set(a.path, [...(byPath.get(a.path) ?? []), i]));
  for (const [path, indexes] of byPath) {
    let round = 0;
    let parts: string[] = [];
    let origin: Composed["origin"] = [];
    let bytes = 0;
    const flush = () => {
      if (!parts.length) return;
      (rounds[round++] ??= []).push({ path, content: Buffer.from(parts.join("\n") + "\n", "utf8"), origin });
      parts = [];
      origin = [];
      bytes = 0;
    };
    for (const i of indexes)
      for (const [line, text] of additions[i]!.lines) {
        const n = Buffer.byteLength(text, "utf8") + 1;
        if (bytes + n > MAX_FILE_BYTES) flush();
        parts.push(n > MAX_FILE_BYTES ? text.slice(0, MAX_FILE_BYTES / 4) : text);
        origin.push({ addition: i, line });
        bytes += Math.min(n, MAX_FILE_BYTES);
      }
    flush();
  }
  return rounds;
}
