// Evaluations: what a request must look like, and how findings become a result.
import type { FieldError } from "@verdict/kit";
import type { FileScan, Finding, SuppressedFinding } from "./engine.js";

export const EVALUATION_STATUSES = ["pending", "completed", "failed"] as const;
export type EvaluationStatus = (typeof EVALUATION_STATUSES)[number];

/** The interface specification's maximum file content, in bytes of UTF-8. */
export const MAX_FILE_BYTES = 1_048_576;
/**
 * Violations kept per evaluation. A file full of matches (a vendored bundle, a data dump) would
 * otherwise make one evaluation megabytes large in storage, responses, events and webhooks.
 * The summary still counts every finding, so the result and the counts stay truthful.
 */
export const MAX_VIOLATIONS = 1000;

/** Files in these states are gone from the change: counted, not scanned. */
const UNSCANNED_STATUSES = new Set(["removed", "deleted"]);

export function isScanned(fileStatus: string): boolean {
  return !UNSCANNED_STATUSES.has(fileStatus);
}

/** <owner>/<repo>, or a GitLab project's full path in nested subgroups (GitLab nests 20 deep). */
const REPOSITORY_RE = /^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+){1,21}$/;

/** A file of a change, as the scan threads take it. */
export interface FileToScan {
  path: string;
  /** UTF-8 text, as bytes: the engine scans them as they are. */
  content: Buffer;
  status: string;
}

export interface EvaluationInput {
  repository: string;
  files: { path: string; content: Buffer; status: string }[];
  policies: string[];
}

/** Schema-level problems of a create request (HTTP 400). */
export function checkEvaluationInput(input: EvaluationInput): FieldError[] {
  const problems: FieldError[] = [];
  if (!input.repository) problems.push({ field: "repository", code: "REQUIRED", message: "repository is required" });
  else if (!REPOSITORY_RE.test(input.repository))
    problems.push({
      field: "repository",
      code: "INVALID_FORMAT",
      message:
        "repository must have the form <owner>/<repo> (a GitLab project in subgroups: <group>/<subgroup>/<project>)",
    });
  input.files.forEach((file, i) => {
    if (!file.path) problems.push({ field: `files[${i}].path`, code: "REQUIRED", message: "path is required" });
    if (file.content.length > MAX_FILE_BYTES) {
      problems.push({
        field: `files[${i}].content`,
        code: "MAX_SIZE_EXCEEDED",
        message: `content exceeds ${MAX_FILE_BYTES} bytes`,
        max: MAX_FILE_BYTES,
      });
    }
  });
  input.policies.forEach((id, i) => {
    if (!id) problems.push({ field: `policies[${i}]`, code: "REQUIRED", message: "policy id must not be empty" });
  });
  return problems;
}

export interface Summary {
  total_files: number;
  total_violations: number;
  errors: number;
  warnings: number;
  /** Findings silenced by inline verdict-ignore comments. */
  suppressed: number;
  /** Files not scanned: removed, binary, minified, lock files or excluded paths. */
  skipped_files: number;
}

export interface Outcome {
  summary: Summary;
  /** Passed when nothing of error severity was found; warnings do not fail an evaluation. */
  passed: boolean;
  /** The findings kept as violations, in file and reading order. */
  kept: Finding[];
  suppressions: SuppressedFinding[];
  /**
   * Paths of the files the engine read (not skipped, not empty), in order: compliance evidence of
   * which files the policies could apply to.
   */
  scanned_paths: string[];
}

/** Adds up the scans of an evaluation's files; the counts include findings past the cap. */
export function summarize(totalFiles: number, scans: FileScan[], scannedPaths: string[] = []): Outcome {
  const count = (severity: string) => scans.reduce((n, s) => n + (s.bySeverity[severity] ?? 0), 0);
  const errors = count("error");
  const suppressions = scans.flatMap((s) => s.suppressions);
  return {
    summary: {
      total_files: totalFiles,
      total_violations: scans.reduce((n, s) => n + s.matched, 0),
      errors,
      warnings: count("warning"),
      suppressed: suppressions.length,
      skipped_files: scans.filter((s) => s.skipped).length,
    },
    passed: errors === 0,
    kept: scans.flatMap((s) => s.findings).slice(0, MAX_VIOLATIONS),
    suppressions,
    scanned_paths: scannedPaths,
  };
}

/**
 * An evaluation's files in slices of at most maxBytes of content each (a larger file alone), in
 * order: the scan threads take an evaluation one slice at a time.
 */
export function sliceFiles<T extends { content: { byteLength: number } }>(
  files: readonly T[],
  maxBytes: number,
): T[][] {
  const slices: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const file of files) {
    if (current.length && bytes + file.content.byteLength > maxBytes) {
      slices.push(current);
      current = [];
      bytes = 0;
    }
    current.push(file);
    bytes += file.content.byteLength;
  }
  if (current.length) slices.push(current);
  return slices;
}

/**
 * A slice's files with their contents copied into one new buffer, each `content` a view of it, so
 * the slice moves to a scan thread by transfer: structured cloning would serialize every file's
 * bytes on this thread and allocate them again, one buffer per file, on the scan thread.
 */
export function packSlice<T extends { content: Uint8Array }>(
  files: readonly T[],
): { files: (Omit<T, "content"> & { content: Uint8Array })[]; buffer: ArrayBuffer } {
  const buffer = new ArrayBuffer(files.reduce((n, f) => n + f.content.byteLength, 0));
  const bytes = new Uint8Array(buffer);
  let at = 0;
  const packed = files.map((file) => {
    bytes.set(file.content, at);
    const content = new Uint8Array(buffer, at, file.content.byteLength);
    at += file.content.byteLength;
    return { ...file, content };
  });
  return { files: packed, buffer };
}

/** One outcome of the outcomes of an evaluation's slices, in order: as if scanned at once. */
export function mergeOutcomes(outcomes: readonly Outcome[]): Outcome {
  const sum = (field: keyof Summary) => outcomes.reduce((n, o) => n + o.summary[field], 0);
  return {
    summary: {
      total_files: sum("total_files"),
      total_violations: sum("total_violations"),
      errors: sum("errors"),
      warnings: sum("warnings"),
      suppressed: sum("suppressed"),
      skipped_files: sum("skipped_files"),
    },
    passed: outcomes.every((o) => o.passed),
    kept: outcomes.flatMap((o) => o.kept).slice(0, MAX_VIOLATIONS),
    suppressions: outcomes.flatMap((o) => o.suppressions),
    scanned_paths: outcomes.flatMap((o) => o.scanned_paths),
  };
}

/** The bytes of content of an evaluation's files. */
export function contentBytes(files: readonly { content: { length: number } }[]): number {
  let bytes = 0;
  for (const f of files) bytes += f.content.length;
  return bytes;
}
