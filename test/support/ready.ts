// Waiting for a started process's ready line, shared by the all-in-one and the distributed stack.
// On a shared CI machine under load, starting Node with every service's modules has taken over
// 30 s (12 s measured here at load 9, 2 s idle), so the default wait is generous; when it does
// time out, the process is killed (no orphan keeps loading the machine for the next suite) and
// the error shows how long it waited and the tail of its output, not all of it (CI logs keep
// only part of a run's output).
import type { ChildProcess } from "node:child_process";

export const READY_TIMEOUT_MS = Number(process.env.VERDICT_TEST_READY_TIMEOUT_MS ?? 90_000);
const TAIL_LINES = 30;

export function tail(out: string, lines = TAIL_LINES): string {
  const all = out.trimEnd().split("\n");
  return (all.length > lines ? [`… (${all.length - lines} earlier lines)`] : []).concat(all.slice(-lines)).join("\n");
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
      proc.kill("SIGKILL");
      rej(
        new Error(
          `${name} did not become ready within ${Math.round((Date.now() - started) / 1000)} s; its output ended with:\n${tail(output())}`,
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
