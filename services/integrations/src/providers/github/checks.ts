import type { Annotation, CheckReport } from "../../domain/provider.js";

/** GitHub takes at most 50 annotations per check run create or update request. */
export const ANNOTATIONS_PER_REQUEST = 50;
/** GitHub's limits on a check run's output (characters). */
const SUMMARY_MAX = 65_535;
const TITLE_MAX = 255;

type Conclusion = "success" | "failure" | "neutral";

/** A check run update's body, as POST/PATCH /repos/{owner}/{repo}/check-runs take it. */
export interface CheckRunUpdate {
  status?: "in_progress" | "completed";
  conclusion?: Conclusion;
  completed_at?: string;
  details_url?: string;
  output: {
    title: string;
    summary: string;
    annotations?: Array<{
      path: string;
      start_line: number;
      end_line: number;
      annotation_level: Annotation["level"];
      title: string;
      message: string;
      raw_details: string;
    }>;
  };
}

/** An evaluation that failed to run blocks like a failing one: never a silent pass. */
const CONCLUSIONS: Record<Exclude<CheckReport["state"], "pending">, Conclusion> = {
  success: "success",
  failure: "failure",
  neutral: "neutral",
  error: "failure",
};

/**
 * The updates that post a report on a check run. GitHub appends each request's annotations to
 * the run, so they go in batches of 50; the conclusion rides on the last request, so the run
 * completes only once every annotation is on it. A pending report keeps the run in progress
 * (the "pending, retrying" case) and carries no annotations.
 */
export function checkRunUpdates(report: CheckReport, now: Date): CheckRunUpdate[] {
  const output = { title: truncate(report.title, TITLE_MAX), summary: summaryOf(report) };
  const details = report.detailsUrl === undefined ? {} : { details_url: report.detailsUrl };
  if (report.state === "pending") return [{ status: "in_progress", ...details, output }];
  const annotations = report.annotations.map(toGitHubAnnotation);
  const batches: CheckRunUpdate["output"]["annotations"][] = [];
  for (let i = 0; i < annotations.length; i += ANNOTATIONS_PER_REQUEST) {
    batches.push(annotations.slice(i, i + ANNOTATIONS_PER_REQUEST));
  }
  if (batches.length === 0) batches.push(undefined);
  return batches.map((batch, index) => {
    const withBatch = batch === undefined ? output : { ...output, annotations: batch };
    if (index < batches.length - 1) return { output: withBatch };
    return {
      status: "completed",
      conclusion: CONCLUSIONS[report.state as Exclude<CheckReport["state"], "pending">],
      completed_at: now.toISOString(),
      ...details,
      output: withBatch,
    };
  });
}

function toGitHubAnnotation(annotation: Annotation) {
  return {
    path: annotation.path,
    start_line: annotation.line,
    end_line: Math.max(annotation.line, annotation.endLine ?? annotation.line),
    annotation_level: annotation.level,
    title: truncate(annotation.title, TITLE_MAX),
    message: annotation.message,
    raw_details: `fingerprint: ${annotation.fingerprint}`,
  };
}

/** The report's summary, then the counts by level and the link to the evaluation. */
export function summaryOf(report: CheckReport): string {
  const count = (level: Annotation["level"]) => report.annotations.filter((a) => a.level === level).length;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const counts = `**${plural(count("failure"), "failure")}, ${plural(count("warning"), "warning")}, ${plural(count("notice"), "notice")}**`;
  const link = report.detailsUrl === undefined ? "" : `\n\n[The evaluation in Verdict](${report.detailsUrl})`;
  const tail = `\n\n${counts}${link}`;
  return truncate(report.summary, SUMMARY_MAX - tail.length) + tail;
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
