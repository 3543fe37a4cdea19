import { assertListInput, foreignCursor } from "@verdict/kit";
import { encodeCursor, parseListInput, type ListInput } from "../domain/listQuery.js";
import type { EvaluationDeps } from "../deps.js";
import type { EvaluationRecord } from "../repo.js";

export interface ListEvaluationsCommand extends ListInput {
  organizationId: string;
}

export interface EvaluationPage {
  evaluations: EvaluationRecord[];
  /** Absent on the last page. */
  next_cursor?: string;
  has_more: boolean;
}

/** Newest first (ids are time-sortable); deleted evaluations never appear. */
export async function listEvaluations(deps: EvaluationDeps, cmd: ListEvaluationsCommand): Promise<EvaluationPage> {
  const { query, problems } = parseListInput(cmd);
  assertListInput(problems);
  // A cursor names the last evaluation of the page before; one that names no evaluation of this
  // organization (deleted ones keep a record) was not issued to it, however well it is shaped.
  if (query.beforeId !== undefined && !(await deps.repo.findDoc(cmd.organizationId, query.beforeId))) foreignCursor();

  // One extra row tells whether another page exists without a count query.
  const rows = await deps.repo.listPage(cmd.organizationId, query);
  const evaluations = rows.slice(0, query.limit);
  const hasMore = rows.length > query.limit;
  return {
    evaluations,
    has_more: hasMore,
    ...(hasMore ? { next_cursor: encodeCursor(evaluations[evaluations.length - 1]!.id) } : {}),
  };
}
