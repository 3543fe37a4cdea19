// The engine without the service: what `verdict evaluate --offline` runs on a developer's
// machine. The same compiled engine and the same outcome (summary, pass or fail) as the scan
// threads compute (scanJob.ts), from plain data.
import { astGrep } from "@verdict/structural";
import { loadRe2 } from "./domain/re2.js";

export { compileEngine, type CompileOptions, type Engine, type Finding, type PolicyToRun } from "./domain/engine.js";
export { MAX_FILE_BYTES, MAX_VIOLATIONS, summarize, type Outcome, type Summary } from "./domain/evaluation.js";
export { notChecked } from "./domain/liveVerification.js";

/**
 * Loads the engine's native addons (RE2, ast-grep) now: they load on first use otherwise (the
 * CLI's single executable keeps the engine in a start-up snapshot, which cannot hold them), and
 * an addon this machine cannot load should fail the command here, said as such, not mid-scan.
 */
export function loadAddons(): void {
  loadRe2();
  astGrep();
}
