// Listing evaluations: filters, page size and the opaque cursor. Ids are time-sortable, so a
// page is "ids below the last one seen", which stays correct while new evaluations arrive.
import {
  decodeCursor as decodeEvaluationCursor,
  encodeCursor,
  parsePageWindow,
  toInstant,
  type FieldError,
} from "@verdict/kit";
import { EVALUATION_STATUSES, type EvaluationStatus } from "./evaluation.js";

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** The cursor of the evaluation list: one of ours names an evaluation id. */
export function decodeCursor(cursor: string): string | undefined {
  return decodeEvaluationCursor(cursor, "eval");
}

export { encodeCursor, toInstant };

export interface ListInput {
  repository?: string;
  status?: string;
  passed?: boolean;
  since?: string;
  until?: string;
  /** 0 means the default page size. */
  limit: number;
  cursor?: string;
}

export interface ListQuery {
  repository?: string;
  status?: EvaluationStatus;
  passed?: boolean;
  /** created_at >= since */
  since?: string;
  /** created_at < until */
  until?: string;
  limit: number;
  /** Only ids below this one (the previous page's last). */
  beforeId?: string;
}

export function parseListInput(input: ListInput): { query: ListQuery; problems: FieldError[] } {
  const problems: FieldError[] = [];
  const query: ListQuery = { limit: input.limit || DEFAULT_PAGE_SIZE };
  if (input.limit < 0)
    problems.push({ field: "limit", code: "MIN_SIZE_REQUIRED", message: "limit must be at least 1", min: 1 });
  if (input.limit > MAX_PAGE_SIZE)
    problems.push({
      field: "limit",
      code: "MAX_SIZE_EXCEEDED",
      message: `limit must be at most ${MAX_PAGE_SIZE}`,
      max: MAX_PAGE_SIZE,
    });
  if (input.repository) query.repository = input.repository;
  if (input.status) {
    if ((EVALUATION_STATUSES as readonly string[]).includes(input.status))
      query.status = input.status as EvaluationStatus;
    else
      problems.push({
        field: "status",
        code: "INVALID_ENUM",
        message: `status must be one of: ${EVALUATION_STATUSES.join(", ")}`,
      });
  }
  if (input.passed !== undefined) query.passed = input.passed;
  const { window, problems: windowProblems } = parsePageWindow(input, "eval");
  Object.assign(query, window);
  problems.push(...windowProblems);
  return { query, problems };
}
