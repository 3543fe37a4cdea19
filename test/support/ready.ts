// Waiting for a started process's ready line, shared by the all-in-one and the distributed stack.
// On a shared CI machine under load, starting Node with every service's modules has taken over
// 30 s (12 s measured here at load 9, 2 s idle), so the default wait is generous; when it does
// time out, the process is killed (no orphan keeps loading the machine for the next suite) and
// the error shows how long it waited, how much CPU the process had had by then and the machine's
// load (starved, or stuck?), and the tail of its output, not all of it (CI logs keep only part of
// a run's output).
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";

export const READY_TIMEOUT_MS = Number(process.env.VERDICT_TEST_READY_TIMEOUT_MS ?? 90_000);
const TAIL_LINES = 30;

export function tail(out: string, lines = TAIL_LINES): string {
  const all = out.trimEnd().split("\n");
  return (all.length > lines ? [`… (${all.length - lines} earlier lines)`] : []).concat(all.slice(-lines)).join("\n");
}

/**
 * What a process given up on had done, and how busy the machine was (Linux): its CPU seconds and
 * state from /proc (a process that used little CPU was starved or waiting, not slow), and the
 * load average. Empty where /proc cannot be read.
 */
export function processReport(pid: number | undefined): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // After "pid (comm) ": state is field 3, utime and stime fields 14 and 15, in clock ticks (100 a second).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const cpu = (Number(fields[11]) + Number(fields[12])) / 100;
    const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
    return ` (it had used ${cpu.toFixed(1)} s of CPU, state ${fields[0]}; load average ${load})`;
  } catch {
    return "";
  }
}

/**
 * Resolves with the parsed JSON of the first stdout line that `isReady` accepts; rejects when the
 * process exits first or `timeoutMs` passes (then the process is killed).
 */
export function waitForReadyLine<T>(
  name: string,
  proc: ChildProcess,
  output: () => string,
  exited: Promise<number | null>,
  isReady: (line: string) => boolean,
  timeoutMs = READY_TIMEOUT_MS,
): Promise<T> {
  const started = Date.now();
  return new Promise<T>((res, rej) => {
    let done = false;
    const timer = setTimeout(() => {
      if (done) return;
      done = true;
      proc.stdout!.off("data", check);
      const report = processReport(proc.pid);
      proc.kill("SIGKILL");
      rej(
        new Error(
          `${name} did not become ready within ${Math.round((Date.now() - started) / 1000)} s${report}; its output ended with:\n${tail(output())}`,
        ),
      );
    }, timeoutMs);
    function check(): void {
      if (done) return;
      for (const line of output().split("\n")) {
        if (!isReady(line)) continue;
        done = true;
        clearTimeout(timer);
        proc.stdout!.off("data", check);
        return res(JSON.parse(line) as T);
      }
    }
    proc.stdout!.on("data", check);
    void exited.then((code) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      rej(new Error(`${name} exited with ${code} before it was ready; its output ended with:\n${tail(output())}`));
    });
  });
}
