// Tests import every @verdict package from its sources (moduleNameMapper below), but worker
// threads (scans, reports, the gateway thread) and the processes the black-box suites start run
// the built files. Bring those up to date first, so that no test ever runs a stale dist/
// (incremental: well under a second when nothing changed).
import { execFileSync } from "node:child_process";
import process from "node:process";

export default function buildBeforeTests() {
  execFileSync(process.execPath, ["node_modules/typescript/bin/tsc", "-b", "tsconfig.build.json"], {
    stdio: "inherit",
  });
}
