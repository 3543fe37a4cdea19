// Tests import every @verdict package from its sources (moduleNameMapper below), but worker
// threads (scans, reports, the gateway thread) and the processes the black-box suites start run
// the built files. Bring those up to date first, so that no test ever runs a stale dist/
// (incremental: well under a second when nothing changed). The dashboard (services/portal) is
// rebuilt only when one of its sources is newer than its last build.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";

function newestMtime(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === "gen") continue;
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

export default function buildBeforeTests() {
  execFileSync(process.execPath, ["node_modules/typescript/bin/tsc", "-b", "tsconfig.build.json"], {
    stdio: "inherit",
  });
  const built = "services/portal/dist/index.html";
  const sources = Math.max(newestMtime("services/portal/src"), statSync("services/portal/index.html").mtimeMs);
  if (!existsSync(built) || statSync(built).mtimeMs < sources) {
    execFileSync("pnpm", ["--filter", "@verdict/portal", "run", "build"], { stdio: "inherit" });
  }
}
