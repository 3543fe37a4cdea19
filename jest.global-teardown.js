// Removes the run's temporary directory (jest.global-setup.js made it TMPDIR for the run).
import { rmSync } from "node:fs";
import process from "node:process";

export default function removeRunTmpdir() {
  const dir = process.env.VERDICT_JEST_TMPDIR;
  // Only the jest that made it (a jest started by a test shares its parent's).
  if (dir && process.env.VERDICT_JEST_TMPDIR_OWNER === String(process.pid))
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}
