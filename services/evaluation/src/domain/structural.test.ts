import { describe, expect, it } from "@jest/globals";
import { cpuBudget } from "./structural.js";

/** Blocks this thread for `ms` without using the CPU: what a busy machine does to a scan. */
const blocked = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Uses `ms` of this thread's CPU time. */
function busy(ms: number): void {
  const { user, system } = process.threadCpuUsage();
  const until = user + system + ms * 1000;
  for (;;) {
    const now = process.threadCpuUsage();
    if (now.user + now.system >= until) return;
  }
}

describe("cpuBudget (the structural rules' per-file budget)", () => {
  it("counts the thread's CPU time, not the time it waited", () => {
    const spent = cpuBudget(40);
    blocked(120);
    expect(spent()).toBe(false);
    busy(60);
    expect(spent()).toBe(true);
  });

  it("is spent when the thread has used its CPU time without waiting", () => {
    const spent = cpuBudget(20);
    expect(spent()).toBe(false);
    busy(30);
    expect(spent()).toBe(true);
  });
});
