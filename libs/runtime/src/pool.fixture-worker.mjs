// A worker for the FairPool tests: holds its thread busy for `ms` (as a long RE2 scan does,
// without yielding), then answers with its label. With `nativeMs` it first blocks in a native
// call that terminating the thread cannot interrupt (as an RE2 call); with `report` it answers
// which thread it ran on and that thread's niceness at the end.
import { spawnSync } from "node:child_process";
import { readlinkSync } from "node:fs";
import { getPriority } from "node:os";
import { threadId } from "node:worker_threads";

export default function work({ label, ms, nativeMs, report }) {
  if (nativeMs) spawnSync("sleep", [String(nativeMs / 1000)]);
  const end = Date.now() + ms;
  while (Date.now() < end);
  if (!report) return label;
  const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
  return { label, threadId, niceness: getPriority(tid) };
}
