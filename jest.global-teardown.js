// Removes the run's temporary directory (jest.global-setup.js made it TMPDIR for the run).
import { rmSync } from "node:fs";
import process from "node:process";

export default function removeRunTmpdir() {
  const dir = process.env.VERDICT_JEST_TMPDIR;
  if (dir) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}
