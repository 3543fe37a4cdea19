// CPU priority of single threads (Linux). setpriority(2) with a thread id changes that thread
// only, and raising a niceness needs no privilege (the image runs as an ordinary user); lowering
// it again does (CAP_SYS_NICE), so a thread made "nicer" stays so until it exits. Elsewhere (no
// /proc/thread-self) nothing is changed.
import { readlinkSync } from "node:fs";
import { getPriority, setPriority } from "node:os";

/** The niceness of work beyond an organization's fair share (CFS weight 110 against 1024 at 0). */
export const LOW_PRIORITY_NICENESS = 10;

/** The kernel's id of the calling thread (0 where unknown). */
export function osThreadId(): number {
  try {
    // "PID/task/TID"
    const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
    return Number.isSafeInteger(tid) && tid > 0 ? tid : 0;
  } catch {
    return 0;
  }
}

/**
 * Raises the niceness of one thread of this process to at least `niceness`; true if it runs at
 * that niceness or above now. Never lowers it (which would need a privilege), never throws.
 */
export function lowerThreadPriority(tid: number, niceness = LOW_PRIORITY_NICENESS): boolean {
  if (!tid) return false;
  try {
    if (getPriority(tid) >= niceness) return true;
    setPriority(tid, niceness);
    return true;
  } catch {
    // The thread has exited already, or the platform has no per-thread priority.
    return false;
  }
}
