export { startEvaluationService, type EvaluationService, type EvaluationServiceOptions } from "./main.js";
export { evaluationConfig, evaluationOptions, evaluationProcessConfig, type EvaluationConfig } from "./config.js";
export { EVALUATION_STATUSES, MAX_FILE_BYTES, MAX_VIOLATIONS } from "./domain/evaluation.js";
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "./domain/listQuery.js";
