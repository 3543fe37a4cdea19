// A worker for the FairPool tests: holds its thread busy for `ms` (as a long RE2 scan does,
// without yielding), then answers with its label. With `nativeMs`, it first waits that long
// inside one native call that terminating the thread cannot interrupt (as an RE2 call is).
import { execFileSync } from "node:child_process";

export default function work({ label, ms, nativeMs }) {
  if (nativeMs) execFileSync("sleep", [String(nativeMs / 1000)]);
  const end = Date.now() + ms;
  while (Date.now() < end);
  return label;
}
