// Tests import every @verdict package from its sources (moduleNameMapper below), but worker
// threads (scans, reports, the gateway thread) and the processes the black-box suites start run
// the built files. Bring those up to date first, so that no test ever runs a stale dist/
// (incremental: well under a second when nothing changed). The dashboard (services/portal) is
// rebuilt only when one of its sources is newer than its last build.
//
// Then it gives the run its own temporary directory: TMPDIR for the test workers and every
// process they start (the CLI's homes, npm installs of the packed CLI, git repositories, browser
// profiles), removed by jest.global-teardown.js. Suites create hundreds of directories, some of
// hundreds of megabytes, and a shared disk filled up with what earlier runs had left.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
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
  // A jest a test starts (test/kube runs the e2e suites through the cluster) keeps its parent's:
  // nesting would make paths too long for Unix sockets (Chromium's SingletonSocket).
  if (!process.env.VERDICT_JEST_TMPDIR) {
    process.env.VERDICT_JEST_TMPDIR = mkdtempSync(join(tmpdir(), "jest-"));
    process.env.VERDICT_JEST_TMPDIR_OWNER = String(process.pid);
    process.env.TMPDIR = process.env.VERDICT_JEST_TMPDIR;
  }
  execFileSync(process.execPath, ["node_modules/typescript/bin/tsc", "-b", "tsconfig.build.json"], {
    stdio: "inherit",
  });
  const built = "services/portal/dist/index.html";
  const sources = Math.max(newestMtime("services/portal/src"), statSync("services/portal/index.html").mtimeMs);
  if (!existsSync(built) || statSync(built).mtimeMs < sources) {
    execFileSync("pnpm", ["--filter", "@verdict/portal", "run", "build"], { stdio: "inherit" });
  }
}
