// What `verdict scan history` reads from git: every commit's added lines (git log -p -U0, read
// as bytes, oldest first), each blob once, and how they go to the API: per path, the added
// lines of the commits of a slice joined into one text (at most 1 MiB; more goes in the next
// round), with a map from its lines back to the commit and line they came from. Reads only.
import { isUtf8 } from "node:buffer";
import { spawn } from "node:child_process";
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
  /** Each line's number in the commit's version of the file. */
  lines: number[];
  /** Where its lines are in the slice's `text`: [start, end), each line ending in \n. */
  start: number;
  end: number;
}

export interface CommitSlice {
  commits: Commit[];
  additions: Addition[];
  /** Every addition's lines, one after another, each ending in \n (UTF-8: invalid bytes became U+FFFD). */
  text: Buffer;
}

/**
 * A growing buffer the added lines are copied into as git's output is read: one copy per slice,
 * no object per line (a view per line, kept until the slice was scanned, cost more in garbage
 * collection than the parsing itself).
 */
class LineArena {
  bytes = Buffer.allocUnsafeSlow(1 << 16);
  length = 0;

  /** Appends `buf[start…end]` and a \n. */
  push(buf: Uint8Array, start: number, end: number): void {
    const n = end - start;
    if (this.length + n + 1 > this.bytes.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(this.bytes.length * 2, this.length + n + 1));
      this.bytes.copy(grown, 0, 0, this.length);
      this.bytes = grown;
    }
    const to = this.bytes;
    let at = this.length;
    // Short lines byte by byte (no call, no view), long ones by one copy.
    if (n < 96) for (let i = start; i < end; i++) to[at++] = buf[i]!;
    else at += Buffer.prototype.copy.call(buf, to, at, start, end);
    to[at++] = LF;
    this.length = at;
  }

  text(): Buffer {
    return this.bytes.subarray(0, this.length);
  }
}

/** git's whole output (stdout), as bytes; `input` written to its standard input. */
function output(root: string, args: string[], input?: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", args, { cwd: root, stdio: ["pipe", "pipe", "pipe"] });
    child.stdin.on("error", () => undefined); // git gone early: its exit says why
    child.stdin.end(input ?? "");
    const out: Buffer[] = [];
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.stdout.on("data", (d: Buffer) => out.push(d));
    child.once("error", reject);
    child.once("close", (code) =>
      code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(err.trim() || `git exited ${code}`)),
    );
  });
}

/** The commits of `range` (git log revision arguments; merges' own diffs left out), oldest first. */
export function commitList(root: string, range: string[]): Promise<string[]> {
  return output(root, ["rev-list", "--reverse", "--no-merges", ...range]).then((b) =>
    b.toString("latin1").split("\n").filter(Boolean),
  );
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

const LF = 0x0a;
const CR = 0x0d;
const PLUS = 0x2b;
const AT = 0x40;

/**
 * Calls `each(buf, start, end)` for every line of `buf`: lines end at `\n` (a `\r` before it left
 * out), no empty last line. A lone `\r` stays in its line, as in the file: the engine counts
 * lines by `\n` too.
 */
function eachLine(buf: Buffer, each: (buf: Buffer, start: number, end: number) => void): void {
  for (let s = 0; s < buf.length;) {
    const lf = buf.indexOf(LF, s);
    let e = lf < 0 ? buf.length : lf;
    if (lf >= 0 && e > s && buf[e - 1] === CR) e--;
    each(buf, s, e);
    s = lf < 0 ? buf.length : lf + 1;
  }
}

/** Whether the line `buf[start…end]` begins with the ASCII `prefix`. */
function startsWith(buf: Buffer, start: number, end: number, prefix: string): boolean {
  if (end - start < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (buf[start + i] !== prefix.charCodeAt(i)) return false;
  return true;
}

const isHex = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66);

/** The new blob's id of an `index OLD..NEW[ MODE]` line `buf[s…e]` (read from its bytes), or undefined. */
function newBlob(buf: Buffer, s: number, e: number): string | undefined {
  let i = s + 6; // after "index "
  const old = i;
  while (i < e && isHex(buf[i]!)) i++;
  if (i === old || buf[i] !== 0x2e || buf[i + 1] !== 0x2e) return undefined;
  const from = (i += 2);
  while (i < e && isHex(buf[i]!)) i++;
  return i > from ? buf.toString("latin1", from, i) : undefined;
}

/** The first line number of the new side of a hunk header `@@ -a,b +c,d @@` (`buf[s…e]`), as its bytes say. */
function hunkStart(buf: Buffer, s: number, e: number): number {
  const plus = buf.indexOf(PLUS, s);
  let n = 0;
  if (plus < 0 || plus >= e) return 0;
  for (let i = plus + 1; i < e && buf[i]! >= 0x30 && buf[i]! <= 0x39; i++) n = n * 10 + buf[i]! - 0x30;
  return n;
}

/**
 * The patch the parser reads, whatever the user's configuration: added lines without context, no
 * renames (a rename is a delete and an add), full blob ids, no colour, the files' own content (no
 * external diff, no textconv filter), paths from the work tree's top with the usual a/ and b/
 * (not diff.noprefix's or diff.mnemonicPrefix's).
 */
const PATCH = [
  "-p",
  "-U0",
  "--no-renames",
  "--full-index",
  "--no-color",
  "--no-ext-diff",
  "--no-textconv",
  "--no-relative",
  "--src-prefix=a/",
  "--dst-prefix=b/",
];

/** git log's arguments for the added lines of the commits it reads on its standard input, in that order. */
const logArgs = (paths: string[]) => [
  "-c",
  "core.quotePath=false",
  "log",
  "--stdin",
  "--no-walk=unsorted",
  ...PATCH,
  `--format=${COMMIT}%H%x00%an%x00%ae%x00%aI`,
  ...(paths.length ? ["--", ...paths] : []),
];

/** A slice as read, and the blobs first seen in it (the progress saved after it names them). */
export interface ReadSlice extends CommitSlice {
  blobs: string[];
}

/**
 * A reader of `git log -p` output, line by line (as bytes: only the added lines are kept, copied
 * into the slice's text; nothing decoded but the headers), that hands on a slice of `size`
 * commits at each commit past it, and the rest at end(). A blob already seen (in `seenBlobs`,
 * which it extends; null: every blob is read) is not read again; binary files and deletions add nothing. `valid` says
 * whether the lines given are all valid UTF-8 (then no line is checked on its own); an invalid
 * added line is kept as a string of it would encode it, with U+FFFD, as when git's output is
 * read as text.
 */
function sliceParser(size: number, seenBlobs: Set<string> | null, emit: (slice: ReadSlice) => void) {
  let commits: Commit[] = [];
  let additions: Addition[] = [];
  let blobs: string[] = [];
  let arena = new LineArena();
  let current: Addition | undefined;
  let skip = true;
  let inHeader = false;
  let next = 0;
  const flush = () => {
    emit({ commits, additions: additions.filter((a) => a.lines.length > 0), blobs, text: arena.text() });
    commits = [];
    additions = [];
    blobs = [];
    arena = new LineArena();
  };
  const line = (buf: Buffer, s: number, e: number, valid: boolean): void => {
    const first = s < e ? buf[s] : -1;
    if (first === PLUS && current && !skip) {
      current.lines.push(next++);
      if (valid || isUtf8(buf.subarray(s + 1, e))) arena.push(buf, s + 1, e);
      else {
        const fixed = Buffer.from(buf.toString("utf8", s + 1, e), "utf8");
        arena.push(fixed, 0, fixed.length);
      }
      current.end = arena.length;
    } else if (first === 1) {
      if (commits.length >= size) flush();
      const [sha, author, email, date] = buf.toString("utf8", s + 1, e).split("\0") as [string, string, string, string];
      commits.push({ sha, author, email, date });
      current = undefined;
      skip = true;
    } else if (first === 0x64 && startsWith(buf, s, e, "diff --git ")) {
      current = undefined;
      skip = false;
      inHeader = true;
    } else if (inHeader) {
      if (startsWith(buf, s, e, "index ")) {
        const blob = newBlob(buf, s, e);
        if (blob && (seenBlobs?.has(blob) || !/[^0]/.test(blob))) skip = true;
        else if (blob) {
          seenBlobs?.add(blob);
          blobs.push(blob);
        }
      } else if (startsWith(buf, s, e, "+++ ")) {
        inHeader = false;
        const path = newPath(buf.toString("utf8", s + 4, e));
        if (!skip && path !== null)
          additions.push(
            (current = { commit: commits.length - 1, path, lines: [], start: arena.length, end: arena.length }),
          );
      } else if (startsWith(buf, s, e, "Binary files ") || startsWith(buf, s, e, "@@")) {
        inHeader = false; // a binary file, or a mode change without content
        skip = true;
      }
    } else if (current && !skip && first === AT && startsWith(buf, s, e, "@@")) next = hunkStart(buf, s, e);
  };
  return { line, end: () => commits.length > 0 && flush() };
}

/**
 * The added lines of `shas` (in that order), from one `git log -p`. With `paths`, only those
 * files' lines. A blob already seen (in this read or `seenBlobs`, which it extends) is not read again.
 */
export async function readSlice(
  root: string,
  shas: string[],
  seenBlobs: Set<string>,
  /** Pathspecs (relative to the root) to keep to; none: every file. */
  paths: string[] = [],
): Promise<CommitSlice> {
  let slice: CommitSlice = { commits: [], additions: [], text: Buffer.alloc(0) };
  const parser = sliceParser(Infinity, seenBlobs, (s) => (slice = s));
  const out = await output(root, logArgs(paths), shas.join("\n") + "\n");
  const valid = isUtf8(out);
  eachLine(out, (buf, s, e) => parser.line(buf, s, e, valid));
  parser.end();
  return { commits: slice.commits, additions: slice.additions, text: slice.text };
}

/** The pseudo-commit readStaged()'s lines are in: the index, not yet committed. */
export const STAGED: Commit = { sha: "staged", author: "", email: "", date: "" };

/**
 * The lines the next commit adds: the index against HEAD (every staged line before the first
 * commit), from one `git diff --cached -p` run in `cwd`, as a slice of one pseudo-commit
 * (STAGED); with `paths` (pathspecs relative to `cwd`), only those files'. What a pre-commit hook
 * checks, as git will commit it (not the work tree: a line staged and then edited away is still
 * checked). Whatever the user's diff settings (PATCH), the paths are relative to the work
 * tree's top; every file is read, even one whose content another file has too.
 */
export async function readStaged(cwd: string, paths: string[]): Promise<CommitSlice> {
  const out = await output(cwd, ["-c", "core.quotePath=false", "diff", "--cached", ...PATCH, "--", ...paths]);
  let slice: CommitSlice = { commits: [], additions: [], text: Buffer.alloc(0) };
  const parser = sliceParser(Infinity, null, (s) => (slice = s));
  const header = Buffer.from(`${COMMIT}${STAGED.sha}\0\0\0`, "utf8");
  parser.line(header, 0, header.length, true);
  const valid = isUtf8(out);
  eachLine(out, (buf, s, e) => parser.line(buf, s, e, valid));
  parser.end();
  return { commits: slice.commits, additions: slice.additions, text: slice.text };
}

/** Slices read ahead of the one being scanned, at most: git waits (its pipe full) beyond that. */
const READ_AHEAD = 2;

/**
 * readSlice() of `shas`, `size` commits at a time, from one `git log -p` for them all, read as it
 * streams: a slice is handed on while git writes the next ones (at most READ_AHEAD ahead).
 */
export async function* readSlices(
  root: string,
  shas: string[],
  size: number,
  seenBlobs: Set<string>,
): AsyncGenerator<ReadSlice> {
  if (!shas.length) return;
  const child = spawn("git", logArgs([]), { cwd: root, stdio: ["pipe", "pipe", "pipe"] });
  const queue: ReadSlice[] = [];
  let finished = false;
  let failure: Error | undefined;
  let wake = () => {};
  const parser = sliceParser(size, seenBlobs, (slice) => {
    queue.push(slice);
    if (queue.length >= READ_AHEAD) child.stdout.pause();
    wake();
  });
  let carry: Buffer | undefined;
  let err = "";
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  const feed = (lines: Buffer) => {
    const valid = isUtf8(lines);
    eachLine(lines, (b, s, e) => parser.line(b, s, e, valid));
  };
  // Whole lines only: a line cut by a chunk waits for the rest of it (only that line is copied).
  child.stdout.on("data", (chunk: Buffer) => {
    let from = 0;
    if (carry) {
      const lf = chunk.indexOf(LF);
      if (lf < 0) return void (carry = Buffer.concat([carry, chunk]));
      feed(Buffer.concat([carry, chunk.subarray(0, lf + 1)]));
      carry = undefined;
      from = lf + 1;
    }
    const last = chunk.lastIndexOf(LF);
    if (last >= from) feed(chunk.subarray(from, last + 1));
    if (Math.max(last + 1, from) < chunk.length) carry = chunk.subarray(Math.max(last + 1, from));
  });
  child.stdin.on("error", () => undefined); // git gone early: its exit says why
  child.stdin.end(shas.join("\n") + "\n");
  child.once("error", (e) => {
    failure = e;
    wake();
  });
  child.once("close", (code) => {
    if (code !== 0) failure ??= new Error(err.trim() || `git exited ${code}`);
    else {
      if (carry?.length) feed(carry);
      parser.end();
    }
    finished = true;
    wake();
  });
  try {
    for (;;) {
      const slice = queue.shift();
      if (slice) {
        child.stdout.resume();
        yield slice;
      } else if (failure) throw failure;
      else if (finished) return;
      else await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    if (!finished) child.kill();
  }
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
export function composeRounds({ additions, text }: Pick<CommitSlice, "additions" | "text">): Composed[][] {
  const rounds: Composed[][] = [];
  const byPath = new Map<string, number[]>();
  additions.forEach((a, i) => {
    const list = byPath.get(a.path);
    if (list) list.push(i);
    else byPath.set(a.path, [i]);
  });
  for (const [path, indexes] of byPath) {
    let round = 0;
    /** Runs of whole lines, each line ending in \n. */
    let parts: Buffer[] = [];
    let origin: Composed["origin"] = [];
    let bytes = 0; // as counted against the limit: a cut line counts whole
    let size = 0;
    const flush = () => {
      if (!parts.length) return;
      const content = parts.length === 1 ? parts[0]! : Buffer.concat(parts, size);
      (rounds[round++] ??= []).push({ path, content, origin });
      parts = [];
      origin = [];
      bytes = 0;
      size = 0;
    };
    for (const i of indexes) {
      const a = additions[i]!;
      if (bytes + (a.end - a.start) <= MAX_FILE_BYTES) {
        // The whole addition fits: its lines as they are.
        parts.push(text.subarray(a.start, a.end));
        for (const line of a.lines) origin.push({ addition: i, line });
        bytes += a.end - a.start;
        size += a.end - a.start;
        continue;
      }
      let s = a.start;
      for (const line of a.lines) {
        const e = text.indexOf(LF, s);
        const n = e + 1 - s;
        if (bytes + n > MAX_FILE_BYTES) flush();
        // A line longer than a file is cut (to a quarter of the limit in characters).
        const part =
          n > MAX_FILE_BYTES
            ? Buffer.from(text.toString("utf8", s, e).slice(0, MAX_FILE_BYTES / 4) + "\n")
            : text.subarray(s, e + 1);
        parts.push(part);
        origin.push({ addition: i, line });
        bytes += Math.min(n, MAX_FILE_BYTES);
        size += part.length;
        s = e + 1;
      }
    }
    flush();
  }
  return rounds;
}
