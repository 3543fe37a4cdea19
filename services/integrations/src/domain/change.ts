// Which files of a change are evaluated, and within which limits: added and modified text only
// (renamed and copied files carry content too), every file at most the evaluation's size limit.
// What does not fit is counted, so the result can say the change was not evaluated whole.
import type { ChangedFile } from "./provider.js";

export interface ChangeLimits {
  /** Files evaluated at most; a larger change is evaluated in part and reported neutral. */
  maxFiles: number;
  /** Bytes of one file (the evaluation API's limit). */
  maxFileBytes: number;
  /** Bytes of all files together. */
  maxTotalBytes: number;
}

export const DEFAULT_CHANGE_LIMITS: ChangeLimits = {
  maxFiles: 1_000,
  maxFileBytes: 1_048_576,
  maxTotalBytes: 25 * 1_048_576,
};

const READ_STATUSES = new Set<ChangedFile["status"]>(["added", "modified", "renamed", "copied"]);

/** The files whose content is read, in the provider's order, at most maxFiles of them. */
export function filesToRead(files: ChangedFile[], limits: ChangeLimits): { read: ChangedFile[]; overLimit: number } {
  const candidates = files.filter((f) => READ_STATUSES.has(f.status));
  return { read: candidates.slice(0, limits.maxFiles), overLimit: Math.max(0, candidates.length - limits.maxFiles) };
}

/** Binary content (a NUL byte, or not UTF-8) is not evaluated. */
export function isText(content: Uint8Array): boolean {
  if (content.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(content);
    return true;
  } catch {
    return false;
  }
}
