// Reads the files an evaluation sends. The API takes UTF-8 text of at most 1 MiB a file: larger
// files and binary files (a NUL byte in the first 8 KiB, as git decides) are left out and named.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { FileInput } from "@verdict/sdk";

export const MAX_FILE_BYTES = 1_048_576;

export interface Skipped {
  path: string;
  reason: string;
}

export function isBinary(content: Buffer): boolean {
  return content.subarray(0, 8192).includes(0);
}

export function readFiles(root: string, files: { path: string; status: FileInput["status"] }[]): { files: FileInput[]; skipped: Skipped[] } {
  const out: FileInput[] = [];
  const skipped: Skipped[] = [];
  for (const f of files) {
    const full = join(root, f.path);
    let size: number;
    try {
      const st = statSync(full);
      if (!st.isFile()) continue;
      size = st.size;
    } catch {
      continue;
    }
    if (size > MAX_FILE_BYTES) {
      skipped.push({ path: f.path, reason: `larger than ${MAX_FILE_BYTES} bytes` });
      continue;
    }
    const content = readFileSync(full);
    if (isBinary(content)) {
      skipped.push({ path: f.path, reason: "binary" });
      continue;
    }
    out.push({ path: f.path, content: content.toString("utf8"), status: f.status });
  }
  return { files: out, skipped };
}
