// The engine without the service: what `verdict evaluate --offline` runs on a developer's
// machine. The same compiled engine and the same outcome (summary, pass or fail) as the scan
// threads compute (scanJob.ts), from plain data.
export { compileEngine, type CompileOptions, type Engine, type Finding, type PolicyToRun } from "./domain/engine.js";
export { MAX_FILE_BYTES, MAX_VIOLATIONS, summarize, type Outcome, type Summary } from "./domain/evaluation.js";
export { notChecked } from "./domain/liveVerification.js";
