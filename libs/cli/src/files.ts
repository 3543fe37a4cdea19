// Reads the files an evaluation sends. The API takes UTF-8 text of at most 1 MiB a file: larger
// files and binary files (a NUL byte in the first 8 KiB, as git decides) are left out and named.
// Sizes come first (stat), contents later, one batch at a time (batches.ts), each read into one
// buffer reused from file to file (no allocation, hence no garbage, per file).
import { isUtf8 } from "node:buffer";
import { closeSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import type { FileInput } from "@verdict/sdk";

export const MAX_FILE_BYTES = 1_048_576;

export interface Skipped {
  path: string;
  reason: string;
}

/** A file to send, with its size on disk. */
export interface SizedFile {
  path: string;
  status: FileInput["status"];
  bytes: number;
}

export function isBinary(content: Buffer): boolean {
  return content.subarray(0, 8192).includes(0);
}

const tooLarge = `larger than ${MAX_FILE_BYTES} bytes`;

/** The regular files among `files` with their sizes; larger ones than the API takes are skipped. */
export function sizeFiles(
  root: string,
  files: { path: string; status: FileInput["status"] }[],
): { files: SizedFile[]; skipped: Skipped[] } {
  const out: SizedFile[] = [];
  const skipped: Skipped[] = [];
  for (const f of files) {
    let size: number;
    try {
      const st = statSync(join(root, f.path), { throwIfNoEntry: false });
      if (!st?.isFile()) continue;
      size = st.size;
    } catch {
      continue;
    }
    if (size > MAX_FILE_BYTES) skipped.push({ path: f.path, reason: tooLarge });
    else out.push({ path: f.path, status: f.status, bytes: size });
  }
  return { files: out, skipped };
}

/** The buffer files are read into, grown to the largest file read so far (at most 1 MiB and a byte, but for files grown since they were sized). */
let scratch = Buffer.allocUnsafe(64 * 1024);

/** The whole of a file, read into `scratch`; a file that fills it (it grew since it was sized) is read again on its own. */
function readWhole(path: string, size: number): Buffer {
  // One byte more than the size: a read that fills it means the file grew.
  if (scratch.length < size + 1) scratch = Buffer.allocUnsafe(Math.max(size + 1, scratch.length * 2));
  const fd = openSync(path, "r");
  let length = 0;
  try {
    for (let n; length < scratch.length && (n = readSync(fd, scratch, length, scratch.length - length, null)) > 0;)
      length += n;
  } finally {
    closeSync(fd);
  }
  return length < scratch.length ? scratch.subarray(0, length) : readFileSync(path);
}

/**
 * A file's content as the API takes it, or why it cannot be sent (binary, gone, too large as
 * UTF-8). The content is a view of a buffer the next call reuses: encode it (batches.ts) before
 * reading another file.
 */
export function readFile(
  root: string,
  f: SizedFile,
): { file: SizedFile & { content: Buffer } } | { skipped: Skipped } | null {
  let content: Buffer;
  try {
    content = readWhole(join(root, f.path), f.bytes);
  } catch {
    return null; // removed since it was listed
  }
  if (isBinary(content)) return { skipped: { path: f.path, reason: "binary" } };
  // Invalid UTF-8 arrives as U+FFFD (3 bytes each): the API measures the text it receives.
  if (
    content.length * 3 > MAX_FILE_BYTES &&
    !isUtf8(content) &&
    Buffer.byteLength(content.toString("utf8"), "utf8") > MAX_FILE_BYTES
  ) {
    return { skipped: { path: f.path, reason: `${tooLarge} as UTF-8 text` } };
  }
  return { file: { ...f, bytes: content.length, content } };
}
